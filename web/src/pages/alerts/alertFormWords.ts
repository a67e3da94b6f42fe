// The alert form's words: a name from the feed's filters, the server's refusals beside the field
// they are about in plain words (never "body.condition.threshold must be >= 1"), and checks made
// before sending.
/** What the feed's "Alert me…" hands over: its current filters. */
export interface AlertSeed {
  category?: string;
  tags?: string[];
  userId?: string;
  search?: string;
}

export type AlertField = 'name' | 'filter' | 'threshold' | 'window' | 'category' | 'form';

/** "errors events tagged area:cart": what "Alert me…" names a new alert after. */
export function nameFromSeed(seed: AlertSeed | undefined): string {
  if (!seed) return '';
  const parts = [seed.category ? `${seed.category} events` : 'Events'];
  if (seed.tags?.length) parts.push(`tagged ${seed.tags.join(', ')}`);
  if (seed.userId) parts.push(`of user ${seed.userId}`);
  if (seed.search) parts.push(`matching "${seed.search}"`);
  return parts.join(' ').slice(0, 200);
}

const PLAIN: Array<[RegExp, AlertField, string]> = [
  [/^(body\.)?name\b/i, 'name', 'Give the alert a name (up to 200 characters).'],
  [/^(body\.)?condition\.threshold\b/i, 'threshold', 'Use a whole number of events from 1 to 1,000,000.'],
  [/^(body\.)?condition\.windowSeconds\b|^(body\.)?windowSeconds\b/i, 'window', 'Use a window of 10 seconds to 365 days.'],
  [/^(body\.)?condition\b/i, 'threshold', 'Check the number of events and the window.'],
  [/^(body\.)?filter\b/i, 'filter', ''],
  [/^(body\.)?category\b/i, 'category', ''],
];

/** The field a refusal is about and the words to show beside it (the server's own when they are already words). */
export function fieldOfRefusal(message: string): { field: AlertField; words: string } {
  for (const [pattern, field, words] of PLAIN) if (pattern.test(message)) return { field, words: words || message.replace(/^body\./, '') };
  return { field: 'form', words: message };
}

/** What is wrong before sending, field by field; empty when the form may be sent. */
export function checkAlertForm(input: { name: string; threshold: string; windowSeconds: number }): Partial<Record<AlertField, string>> {
  const problems: Partial<Record<AlertField, string>> = {};
  if (!input.name.trim()) problems.name = 'Give the alert a name.';
  const threshold = Number(input.threshold);
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > 1_000_000) problems.threshold = 'Use a whole number of events from 1 to 1,000,000.';
  if (!Number.isInteger(input.windowSeconds) || input.windowSeconds < 10 || input.windowSeconds > 31_536_000)
    problems.window = 'Use a window of 10 seconds to 365 days.';
  return problems;
}
