import type { Static } from '@sinclair/typebox';
import { InvalidInput } from '../../lib/errors.ts';
import { codePointLength } from '../../lib/text.ts';
import type { StoredFilter } from './queries.ts';
import type { AlertFilter } from './schemas.ts';

// The rules of the alert fields that a JSON schema cannot state (ranges are in schemas.ts).

const MAX_NAME = 100;
const MAX_CATEGORY = 100;
/** Long enough for any real search or user id, short enough to keep a filter a small row. */
const MAX_FILTER_TEXT = 1000;
const MAX_TAGS = 20;
const DEFAULT_ALERT_CATEGORY = 'alerts';

export function checkName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new InvalidInput('name is required');
  if (codePointLength(name) > MAX_NAME) throw new InvalidInput(`name must be at most ${MAX_NAME} characters`);
  return name;
}

/** The category of the events the alert creates: what an event's category may be. */
export function checkCategory(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_ALERT_CATEGORY;
  if (raw.trim() === '') throw new InvalidInput('category must not be empty');
  if (codePointLength(raw) > MAX_CATEGORY) throw new InvalidInput(`category must be at most ${MAX_CATEGORY} characters`);
  return raw;
}

function filterText(field: string, value: string | undefined, max = MAX_FILTER_TEXT): string | undefined {
  if (value === undefined) return undefined;
  if (value === '') throw new InvalidInput(`filter.${field} must not be empty`);
  if (codePointLength(value) > max) throw new InvalidInput(`filter.${field} must be at most ${max} characters`);
  return value;
}

/** The filter as stored: only the fields given, each checked as the feed checks its parameter. */
export function checkFilter(raw: Static<typeof AlertFilter> | undefined): StoredFilter {
  const filter: StoredFilter = {};
  if (!raw) return filter;
  const category = filterText('category', raw.category, MAX_CATEGORY);
  if (category !== undefined) filter.category = category;
  if (raw.tags !== undefined) {
    const entries = Object.entries(raw.tags);
    if (entries.length > MAX_TAGS) throw new InvalidInput(`filter.tags may hold at most ${MAX_TAGS} pairs`);
    for (const [key, value] of entries) {
      if (key === '') throw new InvalidInput('filter.tags keys must not be empty');
      if (typeof value === 'number' && !Number.isFinite(value)) throw new InvalidInput('filter.tags values must be finite numbers');
    }
    if (entries.length > 0) filter.tags = raw.tags;
  }
  const userId = filterText('user_id', raw.user_id);
  if (userId !== undefined) filter.user_id = userId;
  const search = filterText('search', raw.search);
  if (search !== undefined) filter.search = search;
  return filter;
}

/** A mute's end, from Unix seconds; null unmutes. */
export function checkMuteUntil(until: number | null): Date | null {
  if (until === null) return null;
  if (!Number.isFinite(until) || until < 0 || until > 253_402_300_799) {
    throw new InvalidInput('until must be Unix seconds from 0 to 253402300799, or null');
  }
  return new Date(Math.round(until * 1000));
}
