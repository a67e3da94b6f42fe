import type { Db } from '../../db/client.ts';
import { type CandidateBlock, type FeedQuery, blocksMatching, searchIndexed, selectFeed } from './feedQueries.ts';
import type { EventRow } from './queries.ts';

/**
 * Past this many search blocks that may hold the text, walking the keyset index until the page
 * is full costs less than checking blocks (decision 167): at 10M events, a text in 1% of them is
 * in half the blocks; the walk reads about 5,000 rows.
 */
const MOST_BLOCKS = 2000;
/** Blocks checked by the first statement; each next one checks twice as many. */
const FIRST_BLOCKS = 16;

/** Newest first; a block whose bound is not known (null) comes before every other. */
function newestFirst(a: CandidateBlock, b: CandidateBlock): number {
  if (a.newestMicros === b.newestMicros) return b.firstEventId - a.firstEventId;
  if (a.newestMicros === null) return -1;
  if (b.newestMicros === null) return 1;
  return BigInt(b.newestMicros) > BigInt(a.newestMicros) ? 1 : -1;
}

/** Feed order: newest first, then the larger id. */
function feedOrder(a: EventRow, b: EventRow): number {
  if (a.createdMicros !== b.createdMicros) return BigInt(b.createdMicros) > BigInt(a.createdMicros) ? 1 : -1;
  return b.id - a.id;
}

/** Whether no event of the block can come before the page's last row in feed order. */
function cannotPrecede(block: CandidateBlock, last: EventRow): boolean {
  return block.newestMicros !== null && BigInt(block.newestMicros) < BigInt(last.createdMicros);
}

/**
 * Search, for a text too rare to fill a page from the recent window (decision 167). The blocks
 * that may hold it are checked newest first, a few, then twice as many each time, until the page
 * is full and every block left holds only older events; the first statement also checks the
 * events the indexer has not reached. A text in more than MOST_BLOCKS blocks is in enough events
 * for the walk along the keyset index to fill a page soon.
 */
export async function searchByBlocks(sql: Db, q: FeedQuery & { pattern: string; blockPatterns: string[] }): Promise<EventRow[]> {
  const { blocks: candidates, indexedThrough } = await blocksMatching(sql, q, MOST_BLOCKS + 1);
  if (candidates.length > MOST_BLOCKS) return selectFeed(sql, q);
  candidates.sort(newestFirst);
  let rows: EventRow[] = [];
  for (let checked = 0, take = FIRST_BLOCKS; ; take *= 2) {
    const blocks = candidates.slice(checked, checked + take);
    const found = await searchIndexed(sql, { ...q, blocks: blocks.map((b) => b.firstEventId), unindexedAbove: checked === 0 ? indexedThrough : null });
    checked += blocks.length;
    rows = [...rows, ...found].sort(feedOrder).slice(0, q.limit);
    const last = rows[q.limit - 1];
    if (checked >= candidates.length || (last && cannotPrecede(candidates[checked]!, last))) break;
  }
  return rows;
}
