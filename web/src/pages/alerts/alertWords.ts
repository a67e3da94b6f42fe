import type { Alert } from '../../types.ts';

// How an alert reads on the Alerts tab, as the server words its events' descriptions.

const UNITS: Array<[seconds: number, name: string]> = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** 300 → "5 minutes", 90000 → "25 hours": the largest unit that divides it. */
export function durationInWords(seconds: number): string {
  const [size, name] = UNITS.find(([unit]) => seconds % unit === 0) ?? [1, 'second'];
  const amount = seconds / size;
  return `${amount} ${name}${amount === 1 ? '' : 's'}`;
}

/** "at least 10 `errors` events in 5 minutes", with the filter's other parts after the noun. */
export function conditionInWords(alert: Pick<Alert, 'filter' | 'condition'>): string {
  const { count, threshold, windowSeconds } = alert.condition;
  const noun = threshold === 1 ? 'event' : 'events';
  const { category, tags, user_id: userId, search } = alert.filter;
  const parts = [category !== undefined ? `\`${category}\` ${noun}` : noun];
  if (tags && Object.keys(tags).length > 0)
    parts.push(
      `tagged ${Object.entries(tags)
        .map(([key, value]) => `${key}:${String(value)}`)
        .join(', ')}`,
    );
  if (userId !== undefined) parts.push(`of user ${userId}`);
  if (search !== undefined) parts.push(`matching "${search}"`);
  return `${count === 'atLeast' ? 'at least' : 'fewer than'} ${threshold} ${parts.join(' ')} in ${durationInWords(windowSeconds)}`;
}

/** Whether the alert is muted now. */
export function isMuted(alert: Pick<Alert, 'mutedUntil'>, now = Date.now()): boolean {
  return alert.mutedUntil !== null && Date.parse(alert.mutedUntil) > now;
}
