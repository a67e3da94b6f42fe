import { useCallback, useEffect, useRef, useState } from 'react';
import * as api from '../../generated/index.ts';
import type { EventItem } from '../../types.ts';
import { playChime, rememberSound, soundEnabled } from './notifySound.ts';

const MAX_TOASTS = 3;
const TOAST_MS = 10_000;
const COUNT_PREFIX = /^\(\d+\) /;

const attending = () => document.visibilityState === 'visible' && document.hasFocus();

/**
 * What a notify event does in an open tab: a toast that opens it, "(N) " in the tab title while
 * the tab is in the background (cleared when the person comes back), and a chime if they asked.
 */
export function useNotifyCue() {
  const [toasts, setToasts] = useState<EventItem[]>([]);
  const [unseen, setUnseen] = useState(0);
  const [sound, setSound] = useState(soundEnabled);
  const soundRef = useRef(sound);
  soundRef.current = sound;
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const base = document.title.replace(COUNT_PREFIX, '');
    document.title = unseen > 0 ? `(${unseen}) ${base}` : base;
  }, [unseen]);

  useEffect(() => {
    const comeBack = () => {
      if (attending()) setUnseen(0);
    };
    document.addEventListener('visibilitychange', comeBack);
    window.addEventListener('focus', comeBack);
    const pending = timers.current;
    return () => {
      document.removeEventListener('visibilitychange', comeBack);
      window.removeEventListener('focus', comeBack);
      for (const timer of pending) clearTimeout(timer);
      document.title = document.title.replace(COUNT_PREFIX, '');
    };
  }, []);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((item) => item.id !== id)), []);

  const notify = useCallback(
    async (eventId: number) => {
      if (!attending()) setUnseen((count) => count + 1);
      if (soundRef.current) playChime();
      try {
        const event = await api.getEvent({ path: { eventId: String(eventId) } });
        setToasts((list) => [...list.filter((item) => item.id !== event.id), event].slice(-MAX_TOASTS));
        const timer = setTimeout(() => {
          timers.current.delete(timer);
          dismiss(event.id);
        }, TOAST_MS);
        timers.current.add(timer);
      } catch {
        // Deleted before it could be shown: the count and the chime were enough.
      }
    },
    [dismiss],
  );

  const toggleSound = useCallback(() => {
    setSound((on) => {
      rememberSound(!on);
      // Turning it on is a click, the gesture a browser wants before audio may play.
      if (!on) playChime();
      return !on;
    });
  }, []);

  return { toasts, dismiss, notify, sound, toggleSound };
}
