// Small pure helpers for the words the dashboard shows; no DOM, so unit tests import them.

/** "1 insight", "2 insights", "1,200 events". */
export function count(n: number, noun: string): string {
  return `${n.toLocaleString()} ${n === 1 ? noun : `${noun}s`}`;
}

/**
 * The field an API error is about: the server words its 400s "<field> must …" or "<field> is …"
 * (schema errors as "body.<field> must …"), so a message that starts with a field's name belongs
 * beside that field.
 */
export function fieldOfMessage<F extends string>(message: string, fields: Record<F, string[]>): F | null {
  const lower = message.toLowerCase().replace(/^(body|querystring)\./, '');
  for (const [field, words] of Object.entries(fields) as Array<[F, string[]]>) {
    if (words.some((word) => lower.startsWith(`${word.toLowerCase()} `) || lower.startsWith(`${word.toLowerCase()}:`))) return field;
  }
  return null;
}
