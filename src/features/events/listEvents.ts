import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { requireGroup } from '../groups/requireGroup.ts';
import { requireProject } from '../projects/requireProject.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { eventFromRow } from './eventObject.ts';
import { parseFeedFilters } from './feedFilters.ts';
import { type FeedQuery, searchRecent, selectFeed } from './feedQueries.ts';
import type { EventRow } from './queries.ts';
import { searchByBlocks } from './searchByBlocks.ts';
import { blockPatterns } from './searchWords.ts';
import type { EventPage, ListEventsQuery } from './schemas.ts';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;
/** Rows the first search step reads along the keyset index before asking the trigram index. */
const SEARCH_WINDOW = 5000;

/** Clamped to 1..100; anything that is not an integer means the default (spec: "clamped"). */
export function pageSize(raw: string | undefined): number {
  if (raw === undefined || !/^\s*-?\d+\s*$/.test(raw)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Number(raw)));
}

/** `%`, `_` and `\` in the search text match themselves. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listEvents({ ctx, input }: VerbArgs<Static<typeof ListEventsQuery>>): Promise<Static<typeof EventPage>> {
  // The spec gives this endpoint only 401 and 404: a missing project is a project not found.
  if (!input.project) throw new NotFound('Project');
  await requireProject(ctx, input.project);
  const limit = pageSize(input.limit);
  const filters = parseFeedFilters(input);
  if (filters.groupId !== undefined) await requireGroup(ctx, input.project, filters.groupId);
  const query: FeedQuery = {
    ...filters,
    organizationId: ctx.organizationId,
    projectId: input.project,
    category: input.category || undefined,
    before: decodeCursor(input.cursor),
    // One more than the page tells whether another page exists.
    limit: limit + 1,
  };
  const { sql } = ctx.services;
  let rows: EventRow[];
  if (input.search) {
    const searchQuery = { ...query, pattern: likePattern(input.search) };
    rows = await searchRecent(sql, searchQuery, SEARCH_WINDOW);
    if (rows.length <= limit) rows = await searchByBlocks(sql, { ...searchQuery, blockPatterns: blockPatterns(input.search) });
  } else {
    rows = await selectFeed(sql, query);
  }
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: page.map(eventFromRow),
    nextCursor: rows.length > limit && last ? encodeCursor(last.createdMicros, last.id) : null,
  };
}
