const SOUND_KEY = 'eventlog.feed.notifySound';

export function soundEnabled(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

export function rememberSound(on: boolean): void {
  try {
    if (on) localStorage.setItem(SOUND_KEY, 'on');
    else localStorage.removeItem(SOUND_KEY);
  } catch {
    // Private windows may refuse storage: the toggle then lasts for this page only.
  }
}

let context: AudioContext | null = null;

/** A short two-note chime made with WebAudio, so no audio file has to be shipped or fetched. */
export function playChime(): void {
  const Audio = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Audio) return;
  context ??= new Audio();
  const audio = context;
  void audio.resume?.();
  const start = audio.currentTime;
  for (const [offset, frequency] of [
    [0, 880],
    [0.12, 1320],
  ] as const) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.25);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start + offset);
    oscillator.stop(start + offset + 0.3);
  }
}
