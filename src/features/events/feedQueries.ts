import type { Db } from '../../db/client.ts';
import type { FeedFilters } from './feedFilters.ts';
import { type EventRow, eventColumns, searchDocument } from './queries.ts';

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
 * One `tag` parameter: the tags contain one of its alternatives. `tags::jsonb` must stay
 * identical to the expression of the `events_tags` index (migrations/050).
 */
const tagFilter = (sql: Db, alternatives: string[]) =>
  sql`AND (${alternatives.slice(1).reduce((any, json) => sql`${any} OR e.tags::jsonb @> ${json}::text::jsonb`, sql`e.tags::jsonb @> ${alternatives[0]!}::text::jsonb`)})`;

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
  ${(q.tags ?? []).reduce((all, alternatives) => sql`${all} ${tagFilter(sql, alternatives)}`, sql``)}
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

/**
 * Up to `atMost` of the project's search blocks whose words hold every word of the search text,
 * in no order. The statement is unnamed (only `unsafe` can send one), so PostgreSQL plans it for
 * its own patterns each time: prepared, after a few runs it kept a plan for any pattern, which
 * scanned every block for a rare term (121 ms at 1M instead of 4).
 */
export function blocksMatching(sql: Db, q: BlockQuery, atMost: number): Promise<CandidateBlock[]> {
  const patterns = q.blockPatterns.map((_, i) => `AND b.words ILIKE $${i + 4}`).join(' ');
  return sql.unsafe<CandidateBlock[]>(
    `SELECT b.first_event_id AS "firstEventId",
            (extract(epoch FROM b.newest_at) * 1000000)::bigint::text AS "newestMicros"
     FROM search_blocks b WHERE b.organization_id = $1 AND b.project_id = $2 ${patterns} LIMIT $3`,
    [q.organizationId, q.projectId, atMost, ...q.blockPatterns],
    { prepare: false },
  );
}

/**
 * Search, second step, for terms too rare to fill a page from the recent window: the page of
 * the events that match among those of the given search blocks and, with `unindexed`, those
 * above the organization's watermark, which the indexer has not reached yet (migrations/126).
 * Each source is MATERIALIZED, so the planner cannot walk the keyset index backwards through
 * millions of rows instead, and the scan above the watermark can only follow the primary key.
 * Every candidate is read by its key and checked against its own text, then only the page's rows
 * are read in full.
 */
export function searchIndexed(
  sql: Db,
  q: FeedQuery & { pattern: string; blocks: number[]; unindexed: boolean },
): Promise<EventRow[]> {
  return sql<EventRow[]>`
    WITH indexed AS MATERIALIZED (
      SELECT unnest(b.event_ids) AS id FROM search_blocks b
      WHERE b.organization_id = ${q.organizationId} AND b.first_event_id = ANY(${q.blocks}::int[])
    ), unindexed AS MATERIALIZED (
      -- Bounded on both sides by the watermark and the organization's last id: a range the
      -- planner walks by primary key, where an open-ended one made it scan every event.
      SELECT e.id FROM events e
      WHERE ${q.unindexed} AND e.organization_id = ${q.organizationId}
        AND e.id > coalesce((SELECT p.indexed_through FROM search_progress p WHERE p.organization_id = ${q.organizationId}), 0)
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
