import type { EventDraft } from '../../ports.ts';

// The text of `COPY events FROM STDIN` for imported events (decision 093): a checked row becomes
// its line as soon as it is read, and a chunk of lines gets its ids and owners when written. The
// import (transfer/) makes the lines; importEvents.ts sends them.

/** The columns of a line after its id and owners, in their order. */
export const IMPORTED_COLUMNS = 'category, title, description, icon, tags, metadata, url, user_id, notify, favorited, created_at';

/** A checked event row of the file, as it will be written. */
export type ImportedEvent = EventDraft & { favorited: boolean };

/** A value as COPY's text format writes it: backslash escapes for the four characters it reserves. */
function copyField(value: string | null): string {
  if (value === null) return '\\N';
  // Most values hold none of them; the test is much cheaper than a replace that finds nothing.
  return COPY_RESERVED.test(value) ? value.replace(COPY_RESERVED_ALL, (c) => COPY_ESCAPES[c]!) : value;
}
const COPY_RESERVED = /[\\\n\r\t]/;
const COPY_RESERVED_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Microseconds since the epoch as ISO 8601 with all six fractional digits. */
function isoMicros(micros: bigint): string {
  // Exact as a number until the year 2255; BigInt arithmetic only beyond.
  if (micros <= MAX_SAFE_MICROS) {
    const value = Number(micros);
    const millis = Math.floor(value / 1000);
    return `${new Date(millis).toISOString().slice(0, -1)}${String(value - millis * 1000).padStart(3, '0')}Z`;
  }
  const millis = micros / 1000n;
  return `${new Date(Number(millis)).toISOString().slice(0, -1)}${String(micros - millis * 1000n).padStart(3, '0')}Z`;
}
const MAX_SAFE_MICROS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A checked event as a line of `COPY events (IMPORTED_COLUMNS)` input, without the id, which is
 * only known once the import's ids are reserved (`importedRows` puts it in front). An event
 * without `created_at` gets the input `now`, which PostgreSQL reads as the transaction's start:
 * what the column's default would give.
 */
export function importedLine(d: ImportedEvent): string {
  return (
    `${copyField(d.category)}\t${copyField(d.title)}\t${copyField(d.description)}\t${copyField(d.icon)}\t` +
    `${copyField(d.tags)}\t${copyField(d.metadata)}\t${copyField(d.url)}\t${copyField(d.userId)}\t` +
    `${d.notify ? 't' : 'f'}\t${d.favorited ? 't' : 'f'}\t${d.createdAtMicros === null ? 'now' : isoMicros(d.createdAtMicros)}`
  );
}

/**
 * The COPY input of a chunk of importedLine's lines (each ending in a newline): each line under
 * its id, from `firstId` on, and its owners.
 */
export function importedRows(q: { organizationId: string; projectId: string; firstId: number; lines: string }): { text: string; count: number } {
  const owner = `\t${copyField(q.organizationId)}\t${copyField(q.projectId)}\t`;
  let id = q.firstId;
  let text = '';
  for (let start = 0, end = q.lines.indexOf('\n'); end !== -1; start = end + 1, end = q.lines.indexOf('\n', start)) {
    text += `${id++}${owner}${q.lines.slice(start, end + 1)}`;
  }
  return { text, count: id - q.firstId };
}
