import { InvalidInput } from '../../lib/errors.ts';
import { tagAlternatives } from './tagFilter.ts';

/** The feed's optional filters (extensions.md "Events feed filters"), checked and ready for SQL. */
export interface FeedFilters {
  /** Per `tag` parameter: the JSON objects of which the event's tags must contain one. */
  tags?: string[][];
  userId?: string;
  /** The events of this group's users (extensions.md "Groups (accounts)"). */
  groupId?: string;
  favorited?: boolean;
  sinceMicros?: bigint;
  untilMicros?: bigint;
}

interface FeedFilterInput {
  tag?: string | string[];
  user_id?: string;
  group?: string;
  favorited?: string;
  since?: string;
  until?: string;
}

/** Beyond the years timestamptz can hold; a bound further out than this means "no bound". */
const MAX_SECONDS = 100_000_000_000;

function present(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === '') throw new InvalidInput(`${name} must not be empty`);
  return value;
}

function unixSeconds(name: string, raw: string | undefined): bigint | undefined {
  const value = present(name, raw);
  if (value === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(value.trim())) throw new InvalidInput(`${name} must be a Unix time in seconds`);
  const seconds = Math.min(MAX_SECONDS, Math.max(-MAX_SECONDS, Number(value)));
  return BigInt(Math.round(seconds * 1_000_000));
}

export function parseFeedFilters(input: FeedFilterInput): FeedFilters {
  const filters: FeedFilters = {};
  const tags = input.tag === undefined ? [] : Array.isArray(input.tag) ? input.tag : [input.tag];
  if (tags.length > 0) {
    filters.tags = tags.map((tag) => {
      const colon = tag.indexOf(':');
      if (colon <= 0) throw new InvalidInput('tag must be key:value with a non-empty key');
      return tagAlternatives(tag.slice(0, colon), tag.slice(colon + 1));
    });
  }
  filters.userId = present('user_id', input.user_id);
  filters.groupId = present('group', input.group);
  const favorited = present('favorited', input.favorited);
  if (favorited !== undefined) {
    if (favorited !== 'true' && favorited !== 'false') throw new InvalidInput('favorited must be true or false');
    filters.favorited = favorited === 'true';
  }
  filters.sinceMicros = unixSeconds('since', input.since);
  filters.untilMicros = unixSeconds('until', input.until);
  return filters;
}
