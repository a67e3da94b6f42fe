/** The local calendar day of a time, as a key that sorts and compares: `2026-11-23`. */
function dayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "Today", "Yesterday", or an absolute date such as "Mon 23 Nov 2026". */
function dayLabel(date: Date, now = new Date()): string {
  const key = dayKey(date);
  if (key === dayKey(now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (key === dayKey(yesterday)) return 'Yesterday';
  const part = (options: Intl.DateTimeFormatOptions) => date.toLocaleDateString(undefined, options);
  return `${part({ weekday: 'short' })} ${date.getDate()} ${part({ month: 'short' })} ${date.getFullYear()}`;
}

/** The clock time of an event in the row; the day is given by its separator. */
export function clockTime(date: Date): string {
  // "1:09 PM", not "01:09 PM"; a 24-hour locale still writes "13:09".
  return date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

interface DayGroup<T> {
  key: string;
  label: string;
  items: T[];
}

/** Consecutive items of the same local day, in the order given (newest first). */
export function groupByDay<T extends { createdAt: string }>(items: T[], now = new Date()): Array<DayGroup<T>> {
  const groups: Array<DayGroup<T>> = [];
  for (const item of items) {
    const date = new Date(item.createdAt);
    const key = dayKey(date);
    const last = groups.at(-1);
    if (last?.key === key) last.items.push(item);
    else groups.push({ key, label: dayLabel(date, now), items: [item] });
  }
  return groups;
}
