import { InvalidInput } from '../../lib/errors.ts';
import { codePointLength } from '../../lib/text.ts';
import { tagAlternatives, tagFilterText } from '../events/tagFilter.ts';
import { MAX_CATEGORY_LENGTH } from '../events/validateEventInput.ts';

/** One step of a funnel, checked and ready for SQL. */
export interface StepCondition {
  category?: string;
  /** Per tag pair: the JSON objects of which the event's tags must contain one (as the feed's `tag`). */
  tags: string[][];
}

const MAX_TAG_PAIRS = 20;

/**
 * `{category?, tags?}` as in an alert's filter (extensions.md, "Funnels and breakdowns"). Any
 * other field is a 400: a misspelt `categroy` must not quietly match every event.
 */
export function parseStepFilter(raw: unknown, position: number): StepCondition {
  const where = `steps[${position}]`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new InvalidInput(`${where} must be an object {category?, tags?}`);
  const step = raw as Record<string, unknown>;
  const unknown = Object.keys(step).filter((field) => field !== 'category' && field !== 'tags');
  if (unknown.length > 0) throw new InvalidInput(`${where} has an unknown field ${JSON.stringify(unknown[0])}: a step takes category and tags`);
  const condition: StepCondition = { tags: [] };
  if (step.category !== undefined) {
    if (typeof step.category !== 'string' || step.category.trim() === '' || codePointLength(step.category) > MAX_CATEGORY_LENGTH) {
      throw new InvalidInput(`${where}.category must be a category name of 1-${MAX_CATEGORY_LENGTH} characters`);
    }
    condition.category = step.category;
  }
  if (step.tags !== undefined) {
    if (step.tags === null || typeof step.tags !== 'object' || Array.isArray(step.tags)) {
      throw new InvalidInput(`${where}.tags must be an object of tag key to value`);
    }
    const pairs = Object.entries(step.tags as Record<string, unknown>);
    if (pairs.length > MAX_TAG_PAIRS) throw new InvalidInput(`${where}.tags holds at most ${MAX_TAG_PAIRS} pairs`);
    condition.tags = pairs.map(([key, value]) => {
      if (key === '') throw new InvalidInput(`${where}.tags must not have an empty key`);
      const text = tagFilterText(value);
      // Objects and arrays never match a tag: refused rather than silently matching nothing.
      if (text === undefined) throw new InvalidInput(`tag ${JSON.stringify(key)} must be a string, number, boolean or null`);
      return tagAlternatives(key, text);
    });
  }
  return condition;
}
