import type { AlertRow } from './queries.ts';

// How an alert's condition reads to a person: the description of the events it creates.

const UNITS: Array<[seconds: number, name: string]> = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** 300 → "5 minutes", 90000 → "25 hours", 90 → "90 seconds": the largest unit that divides it. */
function durationInWords(seconds: number): string {
  const [size, name] = UNITS.find(([unit]) => seconds % unit === 0) ?? [1, 'second'];
  const amount = seconds / size;
  return `${amount} ${name}${amount === 1 ? '' : 's'}`;
}

function eventsInWords(alert: Pick<AlertRow, 'filter' | 'threshold'>): string {
  const noun = alert.threshold === 1 ? 'event' : 'events';
  const { category, tags, user_id: userId, search } = alert.filter;
  const parts = [category !== undefined ? `\`${category}\` ${noun}` : noun];
  if (tags)
    parts.push(
      `tagged ${Object.entries(tags)
        .map(([key, value]) => `${key}:${String(value)}`)
        .join(', ')}`,
    );
  if (userId !== undefined) parts.push(`of user ${userId}`);
  if (search !== undefined) parts.push(`matching "${search}"`);
  return parts.join(' ');
}

/** "at least 10 `errors` events in 5 minutes", "fewer than 1 `backup` event in 25 hours". */
export function conditionInWords(alert: Pick<AlertRow, 'filter' | 'threshold' | 'countMode' | 'windowSeconds'>): string {
  const comparison = alert.countMode === 'atLeast' ? 'at least' : 'fewer than';
  return `${comparison} ${alert.threshold} ${eventsInWords(alert)} in ${durationInWords(alert.windowSeconds)}`;
}
