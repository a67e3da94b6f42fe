/** `groupBy=tag:<key>`: the key of a value's series, as the feed's `tag` filter compares it. */
export const NO_TAG = '(none)';

/**
 * A tag value as text: strings as they are, numbers as JavaScript's `String(n)` writes them
 * (PostgreSQL keeps `1.50` and `1e21` as written), `true`, `false`, `null`. An object or array,
 * which no `tag` filter matches, is keyed by its JSON text so that its events still show.
 */
export function tagValueKey(type: string | null | undefined, text: string | null | undefined): string {
  if (type === null || type === undefined) return NO_TAG;
  if (type === 'null') return 'null';
  if (type === 'number') return String(Number(text));
  return text ?? NO_TAG;
}

interface KeyedCount {
  key: string;
  day: string;
  count: number;
}

/**
 * `{ [key]: [{day, count}] }` as JSON text, keys in UTF-16 order as the category chart's, days
 * oldest first. Rows of one key and day (the string "3" and the number 3) are added together.
 */
export function seriesDocument(rows: KeyedCount[]): string {
  const byKey = new Map<string, Map<string, number>>();
  for (const row of rows) {
    let days = byKey.get(row.key);
    if (!days) byKey.set(row.key, (days = new Map<string, number>()));
    days.set(row.day, (days.get(row.day) ?? 0) + row.count);
  }
  const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const series = keys.map((key) => {
    const days = [...byKey.get(key)!.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `${JSON.stringify(key)}:[${days.map(([day, count]) => `{"day":"${day}","count":${count}}`).join(',')}]`;
  });
  return `{${series.join(',')}}`;
}
