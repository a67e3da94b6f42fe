import { useEffect, useState } from 'react';
import * as api from './generated/index.ts';
import type { NotificationPreferences, QuietHours } from './types.ts';

// One copy of the member's notification preferences for the page: the top bar's snooze menu and
// the Account page read and write the same one, so each shows what the other just saved.

let current: NotificationPreferences | null = null;
let loading: Promise<NotificationPreferences> | null = null;
const listeners = new Set<(prefs: NotificationPreferences) => void>();

function publish(prefs: NotificationPreferences): NotificationPreferences {
  current = prefs;
  for (const listener of listeners) listener(prefs);
  return prefs;
}

export async function saveNotificationPreferences(next: NotificationPreferences): Promise<NotificationPreferences> {
  return publish(await api.setNotificationPreferences({ body: next }));
}

export function useNotificationPreferences(): { prefs: NotificationPreferences | null; error: unknown } {
  const [prefs, setPrefs] = useState(current);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    listeners.add(setPrefs);
    if (!current) {
      loading ??= api.getNotificationPreferences().then(publish);
      loading.catch((cause: unknown) => {
        loading = null;
        setError(cause);
      });
    }
    return () => void listeners.delete(setPrefs);
  }, []);
  return { prefs, error };
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const WEEKDAY_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function daysInWords(days: number[]): string {
  const set = [...new Set(days)].sort((a, b) => a - b).join(',');
  if (set === '1,2,3,4,5,6,7') return 'every day';
  if (set === '1,2,3,4,5') return 'every weekday';
  if (set === '6,7') return 'every weekend';
  return `every ${days.map((day) => WEEKDAYS[day - 1]).join(', ')}`;
}

/** "Quiet every weekday 22:00-07:00 Paris time". */
export function quietHoursInWords(quiet: QuietHours): string {
  const city = quiet.timeZone.split('/').pop()?.replace(/_/g, ' ') ?? quiet.timeZone;
  return `Quiet ${daysInWords(quiet.days)} ${quiet.start}-${quiet.end} ${city} time`;
}

/** Whether the member is quiet now: the same rule as the server's, read from the zone's wall clock. */
export function quietNow(quiet: QuietHours, now = new Date()): boolean {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: quiet.timeZone,
    hourCycle: 'h23',
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(now);
  const value = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  const weekday = WEEKDAY_SHORT.indexOf(value('weekday')) + 1;
  const minutes = Number(value('hour')) * 60 + Number(value('minute'));
  const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const start = toMinutes(quiet.start);
  const end = toMinutes(quiet.end);
  const yesterday = weekday === 1 ? 7 : weekday - 1;
  if (end > start) return quiet.days.includes(weekday) && minutes >= start && minutes < end;
  return (quiet.days.includes(weekday) && minutes >= start) || (quiet.days.includes(yesterday) && minutes < end);
}

/** The snooze still running, or null. */
export function snoozedUntil(prefs: NotificationPreferences | null, now = Date.now()): Date | null {
  return prefs?.snoozedUntil && prefs.snoozedUntil * 1000 > now ? new Date(prefs.snoozedUntil * 1000) : null;
}
