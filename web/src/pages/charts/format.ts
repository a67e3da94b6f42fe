// Numbers and days as the reader writes them.

const countFormat = new Intl.NumberFormat();
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const longDayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });

export function formatCount(count: number): string {
  return countFormat.format(count);
}

/** `2026-03-07` as the reader's date ("Mar 7", or "Sat, Mar 7, 2026" long); a calendar date, not an instant. */
export function shortDay(day: string, long = false): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return (long ? longDayFormat : dayFormat).format(new Date(year, month - 1, date));
}
