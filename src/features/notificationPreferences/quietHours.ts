import { InvalidInput } from '../../lib/errors.ts';
import { instantOf, wallClock } from '../../lib/zonedTime.ts';

/** A weekly quiet window: from `start` on each listed ISO weekday (1 = Monday) to the next `end`, in `timeZone`. */
export interface QuietHours {
  timeZone: string;
  start: string;
  end: string;
  days: number[];
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MS = 86_400_000;

/** The quiet hours as stored: the zone as Intl names it, days sorted and distinct; 400 for anything else. */
export function checkQuietHours(raw: QuietHours): QuietHours {
  let timeZone: string;
  try {
    if (!raw.timeZone.trim()) throw new RangeError('empty');
    timeZone = new Intl.DateTimeFormat('en-US', { timeZone: raw.timeZone.trim() }).resolvedOptions().timeZone;
  } catch {
    throw new InvalidInput(`quietHours.timeZone must be an IANA time zone name such as "Europe/Paris", got ${JSON.stringify(raw.timeZone)}`);
  }
  for (const field of ['start', 'end'] as const) {
    if (!TIME.test(raw[field])) throw new InvalidInput(`quietHours.${field} must be a time "HH:MM" from 00:00 to 23:59, got ${JSON.stringify(raw[field])}`);
  }
  if (raw.days.length === 0) throw new InvalidInput('quietHours.days must list at least one ISO weekday (1 = Monday ... 7 = Sunday)');
  for (const day of raw.days) {
    if (!Number.isInteger(day) || day < 1 || day > 7)
      throw new InvalidInput(`quietHours.days must be ISO weekdays from 1 (Monday) to 7 (Sunday), got ${JSON.stringify(day)}`);
  }
  return { timeZone, start: raw.start, end: raw.end, days: [...new Set(raw.days)].sort((a, b) => a - b) };
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * The end of the quiet window `now` is in, or null when it is outside them all. A window opens on a
 * listed day at `start` and runs to the next `end` (the next day's when `end` is not after `start`),
 * so a window across midnight belongs to the day it started on.
 */
function quietUntil(quiet: QuietHours, now: Date): Date | null {
  const at = now.getTime();
  const today = Math.floor(wallClock(quiet.timeZone, at) / DAY_MS) * DAY_MS;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  for (const dayStart of [today, today - DAY_MS]) {
    const isoWeekday = ((new Date(dayStart).getUTCDay() + 6) % 7) + 1;
    if (!quiet.days.includes(isoWeekday)) continue;
    const opens = instantOf(quiet.timeZone, dayStart + start * 60_000);
    const closes = instantOf(quiet.timeZone, dayStart + (end > start ? 0 : DAY_MS) + end * 60_000);
    if (opens <= at && at < closes) return new Date(closes);
  }
  return null;
}

/** Whether a notification due now waits for a summary: quiet hours, or a snooze not yet over. */
export function isHolding(prefs: { quietHours: QuietHours | null; snoozedUntil: Date | null }, now: Date): boolean {
  if (prefs.snoozedUntil && prefs.snoozedUntil.getTime() > now.getTime()) return true;
  return prefs.quietHours !== null && quietUntil(prefs.quietHours, now) !== null;
}
