// The feed's tag filter (extensions.md "Events feed filters"), which alerts, charts and funnels
// share: a value is compared as text, and each value reads as the JSON values that write that text.
// The SQL that tests the alternatives is tagsContain (db/eventExpressions.ts).

/**
 * A tag value as the feed's `tag=key:value` parameter would carry it: strings as they are,
 * numbers as `String(n)`, `true`, `false`, `null`; undefined for an object or an array, which no
 * tag filter matches.
 */
export function tagFilterText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return undefined;
}

/** A tag's value as messages show it (mail, chat channels): strings as they are, the rest as JSON. */
export function tagText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The tag values that read as `value` under the spec's rule (strings as they are, numbers as
 * `String(n)`, true, false, null): each becomes a containment object the tags index serves.
 */
export function tagAlternatives(key: string, value: string): string[] {
  const alternatives: unknown[] = [value];
  const number = Number(value);
  if (value.trim() !== '' && Number.isFinite(number) && String(number) === value) alternatives.push(number);
  if (value === 'true') alternatives.push(true);
  if (value === 'false') alternatives.push(false);
  if (value === 'null') alternatives.push(null);
  return alternatives.map((v) => JSON.stringify({ [key]: v }));
}
