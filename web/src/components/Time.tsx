import { useEffect, useState } from 'react';

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/** One shared clock for every relative time on the page, ticking every 30 seconds. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = () => setNow(Date.now());
    listeners.add(tick);
    timer ??= setInterval(() => listeners.forEach((listener) => listener()), 30_000);
    return () => {
      listeners.delete(tick);
      if (listeners.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  }, []);
  return now;
}

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

function relativeTime(iso: string, now: number): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  if (Number.isNaN(seconds)) return iso;
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(Math.round(seconds / 60), 'minute');
}

export function exactTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long' })} (${date.toISOString()})`;
}

/** A calendar day in words, the same in every English locale: "3 December 2026". */
function longDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getDate()} ${date.toLocaleDateString(undefined, { month: 'long' })} ${date.getFullYear()}`;
}

/** A moment as a date and a clock time, not a distance: "3 December 2026, 14:05:09". */
export function DateAndTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  const clock = Number.isNaN(date.getTime()) ? '' : `, ${date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}`;
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {longDate(iso)}
      {clock}
    </time>
  );
}

/** A day as a date, not a distance ("3 December 2026"), with the exact time on hover. */
export function LongDate({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {longDate(iso)}
    </time>
  );
}

export function RelativeTime({ iso }: { iso: string | null }) {
  const now = useNow();
  if (!iso) return <span className="muted">never</span>;
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}
