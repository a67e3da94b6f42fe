import { InvalidInput } from '../../lib/errors.ts';
import { codePointLength, hasNul } from '../../lib/text.ts';
import { MAX_CATEGORY_LENGTH } from '../events/validateEventInput.ts';

/** More names than any real filter needs; keeps a destination row small. */
const MAX_FILTER_CATEGORIES = 100;

/**
 * A destination's category filter as saved: null (every category) or a non-empty list of names an
 * event's category could have, without repeats, in the order given.
 */
export function checkCategoryFilter(categories: string[] | null | undefined): string[] | null {
  if (categories === undefined || categories === null) return null;
  if (categories.length === 0) throw new InvalidInput('categories must be null (every category) or a non-empty array of category names');
  if (categories.length > MAX_FILTER_CATEGORIES) throw new InvalidInput(`categories may name at most ${MAX_FILTER_CATEGORIES} categories`);
  for (const name of categories) {
    if (name.trim() === '') throw new InvalidInput('categories must not contain an empty name');
    if (codePointLength(name) > MAX_CATEGORY_LENGTH || hasNul(name)) {
      throw new InvalidInput(`each category must be at most ${MAX_CATEGORY_LENGTH} characters of text`);
    }
  }
  return [...new Set(categories)];
}

/** Grouping bursts: 0 or 10-3600 seconds, and no window on a json destination (its contract is one event per delivery). */
export function checkGroupWindow(value: number | undefined, format: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value !== 0 && (value < 10 || value > 3600))) {
    throw new InvalidInput('groupWindowSeconds must be 0 or a whole number of seconds from 10 to 3600');
  }
  if (value !== 0 && format === 'json') throw new InvalidInput('a json destination takes no groupWindowSeconds: each delivery is one event');
  return value;
}
