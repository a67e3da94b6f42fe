import { InvalidInput } from '../../lib/errors.ts';
import { codePointLength, hasNul } from '../../lib/text.ts';
import { MAX_ICON_LENGTH } from '../events/validateEventInput.ts';

/**
 * The spec sets no limit on titles, but (project, title) is a unique b-tree key and PostgreSQL
 * refuses index entries over about 2.7 kB: 500 code points of at most 4 bytes stay under it.
 */
const MAX_INSIGHT_TITLE_LENGTH = 500;

interface InsightInput {
  title: string;
  value: string | number;
  icon?: string | null;
}

/** An insight that passed every rule. `icon` undefined means "not supplied": an update keeps the old one. */
export interface InsightDraft {
  title: string;
  value: string;
  icon: string | null | undefined;
}

function noNul(field: string, value: string): string {
  if (hasNul(value)) throw new InvalidInput(`${field} must not contain NUL characters`);
  return value;
}

/** The rules of POST /api/insight, shared with import so both refuse the same rows. */
export function validateInsightInput(input: InsightInput): InsightDraft {
  if (typeof input.title !== 'string' || input.title.trim() === '') throw new InvalidInput('title is required');
  if (codePointLength(input.title) > MAX_INSIGHT_TITLE_LENGTH) {
    throw new InvalidInput(`title must be at most ${MAX_INSIGHT_TITLE_LENGTH} characters`);
  }
  // Only undefined and null are missing (spec): 0 and "" are values.
  if (input.value === undefined || input.value === null) throw new InvalidInput('value is required');
  if (typeof input.value === 'number' && !Number.isFinite(input.value)) throw new InvalidInput('value must be a finite number');
  const icon = input.icon;
  if (typeof icon === 'string' && codePointLength(noNul('icon', icon)) > MAX_ICON_LENGTH) {
    throw new InvalidInput(`icon must be at most ${MAX_ICON_LENGTH} characters`);
  }
  return { title: noNul('title', input.title), value: noNul('value', String(input.value)), icon };
}
