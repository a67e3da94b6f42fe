import { useCallback, useMemo } from 'react';
import { Link, useSearchParams } from 'wouter';
import type { ListEventsQuery } from '../../generated/index.ts';

/** Time ranges offered by the chips: the URL keeps the range, so a shared link stays relative. */
const RANGES = { '1h': 3600, '24h': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 } as const;
type Range = keyof typeof RANGES;

/** Every filter of the feed, read from and written to the URL (reload, Back and links keep them). */
export interface FeedQuery {
  category: string | null;
  search: string;
  /** `key:value`, as the API takes them. */
  tags: string[];
  userId: string | null;
  /** A group's id: the events of its users. */
  groupId: string | null;
  favorited: boolean;
  range: Range | null;
}

export function useFeedQuery(): [FeedQuery, (change: Partial<FeedQuery>, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const text = params.toString();
  const query = useMemo<FeedQuery>(() => {
    const read = new URLSearchParams(text);
    const range = read.get('range');
    return {
      category: read.get('category'),
      search: read.get('search') ?? '',
      tags: read.getAll('tag'),
      userId: read.get('user_id'),
      groupId: read.get('group'),
      favorited: read.get('favorited') === 'true',
      range: range && range in RANGES ? (range as Range) : null,
    };
  }, [text]);
  const update = useCallback(
    (change: Partial<FeedQuery>, options: { replace?: boolean } = {}) => {
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        const set = (name: string, value: string | null | undefined) => (value ? next.set(name, value) : next.delete(name));
        if ('category' in change) set('category', change.category);
        if ('search' in change) set('search', change.search);
        if ('userId' in change) set('user_id', change.userId);
        if ('groupId' in change) set('group', change.groupId);
        if ('favorited' in change) set('favorited', change.favorited ? 'true' : null);
        if ('range' in change) set('range', change.range);
        if (change.tags) {
          next.delete('tag');
          for (const tag of change.tags) next.append('tag', tag);
        }
        return next;
      }, options);
    },
    [setParams],
  );
  return [query, update];
}

/** The query with every filter off: what "Clear all" sets. */
export const NO_FILTERS: FeedQuery = { category: null, search: '', tags: [], userId: null, groupId: null, favorited: false, range: null };

/** Whether any filter narrows the feed (the category too: it is a filter like the others). */
export function hasFilters(query: FeedQuery): boolean {
  return Boolean(query.category || query.search || query.tags.length || query.userId || query.groupId || query.favorited || query.range);
}

/** Whether a filter besides the category is on: the category totals then ignore something. */
export function narrowsCategories(query: FeedQuery): boolean {
  return Boolean(query.search || query.tags.length || query.userId || query.groupId || query.favorited || query.range);
}

/** The API parameters of the query's filters (besides project, category, search and cursor). */
export function filterQuery(query: FeedQuery): Pick<ListEventsQuery, 'tag' | 'user_id' | 'group' | 'favorited' | 'since'> {
  return {
    tag: query.tags,
    user_id: query.userId ?? undefined,
    group: query.groupId ?? undefined,
    favorited: query.favorited ? 'true' : undefined,
    since: query.range ? String(Math.floor(Date.now() / 1000) - RANGES[query.range]) : undefined,
  };
}

/**
 * Chips for the active filters (each removable), the favorites toggle and the time range. Every
 * control of the row is one chip of the same height, whatever is inside it.
 */
export function FilterChips({ query, update }: { query: FeedQuery; update: (change: Partial<FeedQuery>) => void }) {
  return (
    <div className="filter-chips" role="group" aria-label="Filters">
      {query.tags.map((tag) => (
        <button
          key={tag}
          type="button"
          className="chip"
          aria-label={`Remove filter tag ${tag}`}
          onClick={() => update({ tags: query.tags.filter((t) => t !== tag) })}
        >
          {tag} ×
        </button>
      ))}
      {query.userId && (
        <button type="button" className="chip" aria-label={`Remove filter user ${query.userId}`} onClick={() => update({ userId: null })}>
          user {query.userId} ×
        </button>
      )}
      {query.groupId && (
        <button type="button" className="chip" aria-label={`Remove filter group ${query.groupId}`} onClick={() => update({ groupId: null })}>
          group {query.groupId} ×
        </button>
      )}
      <button
        type="button"
        className="chip chip-toggle"
        aria-pressed={query.favorited}
        data-testid="favorites-only"
        onClick={() => update({ favorited: !query.favorited })}
      >
        <span aria-hidden="true">{query.favorited ? '★' : '☆'}</span> Favorites only
      </button>
      <Link href={alertLink(query)} className="chip alert-me" data-testid="alert-me">
        Alert me…
      </Link>
      <label className="chip">
        <span className="visually-hidden">Time range</span>
        <select name="range" value={query.range ?? ''} onChange={(e) => update({ range: (e.target.value || null) as Range | null })}>
          <option value="">All time</option>
          <option value="1h">Last hour</option>
          <option value="24h">Last 24 hours</option>
          <option value="7d">Last 7 days</option>
          <option value="30d">Last 30 days</option>
        </select>
      </label>
    </div>
  );
}

/** The Alerts tab's new-alert form, filled with the feed's category, tags, user and search. */
function alertLink(query: FeedQuery): string {
  const params = new URLSearchParams({ new: '1' });
  if (query.category) params.set('category', query.category);
  for (const tag of query.tags) params.append('tag', tag);
  if (query.userId) params.set('user_id', query.userId);
  if (query.search) params.set('search', query.search);
  return `/alerts?${params.toString()}`;
}
