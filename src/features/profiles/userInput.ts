import { textProblem } from '../../lib/boundaryText.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { MAX_USER_ID } from '../../lib/limits.ts';
import { codePointLength } from '../../lib/text.ts';

/** Text PostgreSQL's json can hold and search: the boundary's rule (no NUL, no lone surrogate). */
export const storable = (text: string) => textProblem(text) === null;

export function requireUserId(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new InvalidInput('user_id is required: a non-empty string');
  if (codePointLength(value) > MAX_USER_ID || !storable(value)) {
    throw new InvalidInput(`user_id must be at most ${MAX_USER_ID} characters of text`);
  }
  return value;
}

export type Properties = Record<string, string | number | boolean | null>;

/** A key set to null is removed, other keys are replaced, absent keys are kept. */
export function mergeProperties(stored: Properties, update: Properties): Properties {
  const merged: Properties = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
