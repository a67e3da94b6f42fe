import type { Db } from '../../db/client.ts';
import type { FeedFilters } from './feedFilters.ts';
import { searchDocument, tagsContain } from '../../db/eventExpressions.ts';
import { type EventRow, eventColumns } from './queries.ts';

// The feed's reads: one project's events, newest first, filtered, along the keyset index.

export interface FeedQuery extends FeedFilters {
  organizationId: string;
  projectId: string;
  category?: string;
  /** ILIKE pattern, already escaped. */
  pattern?: string;
  before?: { micros: bigint; id: number };
  limit: number;
}

const micros = (sql: Db, value: bigint) => sql`(timestamptz 'epoch' + ${value.toString()}::int8 * interval '1 microsecond')`;

/**
 * `group`: the events of the group's users, read from its memberships (the groups feature's
 * table) in the same statement, named with the organization so Citus keeps it on one shard.
 */
const groupFilter = (sql: Db, organizationId: string, projectId: string, groupId: string) => sql`
  AND e.user_id IN (SELECT m.user_id FROM app_group_members m
    WHERE m.organization_id = ${organizationId} AND m.project_id = ${projectId} AND m.group_id = ${groupId})`;

const feedFilter = (sql: Db, q: FeedQuery) => sql`
  e.organization_id = ${q.organizationId} AND e.project_id = ${q.projectId}
  ${q.category !== undefined ? sql`AND e.category = ${q.category}` : sql``}
  ${q.userId !== undefined ? sql`AND e.user_id = ${q.userId}` : sql``}
  ${q.groupId !== undefined ? groupFilter(sql, q.organizationId, q.projectId, q.groupId) : sql``}
  ${q.favorited === true ? sql`AND e.favorited` : q.favorited === false ? sql`AND NOT e.favorited` : sql``}
  ${q.sinceMicros !== undefined ? sql`AND e.created_at >= ${micros(sql, q.sinceMicros)}` : sql``}
  ${q.untilMicros !== undefined ? sql`AND e.created_at < ${micros(sql, q.untilMicros)}` : sql``}
  ${tagsContain(sql, q.tags ?? [])}
  ${q.before ? sql`AND (e.created_at, e.id) < (timestamptz 'epoch' + ${q.before.micros.toString()}::int8 * interval '1 microsecond', ${q.before.id}::int)` : sql``}`;

/**
 * Newest first along the keyset index; the project must already be known to be the caller's.
 * With a `pattern`, each event is checked against it on the way, until the page is full: how
 * search reads a text that too many blocks may hold for searchIndexed to check all their events
 * (each block adds up to 64). A text in that many blocks is in enough events to fill a page soon.
 */
export function selectFeed(sql: Db, q: FeedQuery): Promise<EventRow[]> {
  return sql<EventRow[]>`
    SELECT ${eventColumns(sql)} FROM events e
    WHERE ${feedFilter(sql, q)} ${q.pattern === undefined ? sql`` : sql`AND ${searchDocument(sql)} ILIKE ${q.pattern}`}
    ORDER BY e.created_at DESC, e.id DESC LIMIT ${q.limit}`;
}

/**
 * Search, first step: the newest `window` rows along the keyset index, filtered. A common term
 * fills a page here after touching a few thousand rows, whatever the table size.
 */
export function searchRecent(sql: Db, q: FeedQuery & { pattern: string }, window: number): Promise<EventRow[]> {
  return sql<EventRow[]>`
    SELECT ${eventColumns(sql)} FROM (
      SELECT e.id, e.project_id, e.category, e.title, e.description, e.icon, e.tags, e.metadata, e.url,
             e.user_id, e.notify, e.favorited, e.created_at
      FROM events e WHERE ${feedFilter(sql, q)}
      ORDER BY e.created_at DESC, e.id DESC LIMIT ${window}
    ) e
    WHERE ${searchDocument(sql)} ILIKE ${q.pattern}
    ORDER BY e.created_at DESC, e.id DESC LIMIT ${q.limit}`;
}

interface BlockQuery {
  organizationId: string;
  projectId: string;
  /** blockPatterns() of the search text. */
  blockPatterns: string[];
}

/** A search block that may hold the search text: its key and its bound (null: not known, as newer than any event). */
export interface CandidateBlock {
  firstEventId: number;
  newestMicros: string | null;
}

/** The blocks that may hold a search text, and the watermark they were read with. */
interface CandidateBlocks {
  blocks: CandidateBlock[];
  /**
   * The organization's watermark in the same snapshot as `blocks`: every event at or below it is
   * in one of the organization's blocks. Search checks the events above this one, not above the
   * watermark of a later statement: an indexer that commits in between moves the watermark past
   * events whose blocks this list does not hold (decision 167, "Read your writes").
   */
  indexedThrough: number;
}

/**
 * Up to `atMost` of the project's search blocks whose words hold every word of the search text,
 * in no order, with the watermark, in one statement (one snapshot). The statement is unnamed
 * (only `unsafe` can send one), so PostgreSQL plans it for its own patterns each time: prepared,
 * after a few runs it kept a plan for any pattern, which scanned every block for a rare term
 * (121 ms at 1M instead of 4).
 */
export async function blocksMatching(sql: Db, q: BlockQuery, atMost: number): Promise<CandidateBlocks> {
  const patterns = q.blockPatterns.map((_, i) => `AND b.words ILIKE $${i + 4}`).join(' ');
  const rows = await sql.unsafe<Array<{ indexedThrough: number; firstEventId: number | null; newestMicros: string | null }>>(
    `SELECT w.through AS "indexedThrough", b.first_event_id AS "firstEventId", b.newest_micros AS "newestMicros"
     FROM (SELECT coalesce((SELECT p.indexed_through FROM search_progress p WHERE p.organization_id = $1), 0) AS through) w
     LEFT JOIN LATERAL (
       SELECT b.first_event_id, (extract(epoch FROM b.newest_at) * 1000000)::bigint::text AS newest_micros
       FROM search_blocks b WHERE b.organization_id = $1 AND b.project_id = $2 ${patterns} LIMIT $3
     ) b ON true`,
    [q.organizationId, q.projectId, atMost, ...q.blockPatterns],
    { prepare: false },
  );
  return {
    indexedThrough: rows[0]?.indexedThrough ?? 0,
    blocks: rows.flatMap((row) => (row.firstEventId === null ? [] : [{ firstEventId: row.firstEventId, newestMicros: row.newestMicros }])),
  };
}

/**
 * Search, second step, for terms too rare to fill a page from the recent window: the page of
 * the events that match among those of the given search blocks and, with `unindexedAbove`, those
 * above that watermark (read with the blocks, blocksMatching), which the indexer had not reached
 * then (migrations/126).
 * Each source is MATERIALIZED, so the planner cannot walk the keyset index backwards through
 * millions of rows instead, and the scan above the watermark can only follow the primary key.
 * Every candidate is read by its key and checked against its own text, then only the page's rows
 * are read in full.
 */
export function searchIndexed(sql: Db, q: FeedQuery & { pattern: string; blocks: number[]; unindexedAbove: number | null }): Promise<EventRow[]> {
  return sql<EventRow[]>`
    WITH indexed AS MATERIALIZED (
      SELECT unnest(b.event_ids) AS id FROM search_blocks b
      WHERE b.organization_id = ${q.organizationId} AND b.first_event_id = ANY(${q.blocks}::int[])
    ), unindexed AS MATERIALIZED (
      -- Bounded on both sides by the watermark and the organization's last id: a range the
      -- planner walks by primary key, where an open-ended one made it scan every event.
      SELECT e.id FROM events e
      WHERE ${q.unindexedAbove !== null} AND e.organization_id = ${q.organizationId}
        AND e.id > ${q.unindexedAbove ?? 0}
        AND e.id <= (SELECT c.last_id FROM id_counters c WHERE c.organization_id = ${q.organizationId} AND c.kind = 'event')
        AND ${searchDocument(sql)} ILIKE ${q.pattern}
    ), matches AS MATERIALIZED (
      -- The candidates as an array of keys: joined instead, the planner trusted the text check
      -- to leave few events and scanned all of them to hash-join a handful of candidates. Those
      -- above the watermark already matched; checking them again costs little.
      SELECT e.id, e.created_at FROM events e
      WHERE e.id = ANY(ARRAY(SELECT id FROM indexed UNION ALL SELECT id FROM unindexed))
        AND ${feedFilter(sql, q)} AND ${searchDocument(sql)} ILIKE ${q.pattern}
    ), page AS (
      SELECT id FROM matches ORDER BY created_at DESC, id DESC LIMIT ${q.limit}
    )
    SELECT ${eventColumns(sql)} FROM events e JOIN page USING (id)
    WHERE e.organization_id = ${q.organizationId}
    ORDER BY e.created_at DESC, e.id DESC`;
}
