import type { Db } from '../../db/client.ts';
import { searchDocument } from '../../db/eventExpressions.ts';

// The search blocks (migrations/126_search_blocks.sql): written after the events' commit, up to
// each organization's watermark. The indexer's SQL; search itself is in feedQueries.ts.

/** Organizations with events above their watermark or blocks to write again (at most `limit`). */
export async function organizationsBehind(sql: Db, limit: number): Promise<string[]> {
  const rows = await sql<{ organizationId: string }[]>`
    SELECT organization_id AS "organizationId" FROM (
      SELECT c.organization_id FROM id_counters c
      LEFT JOIN search_progress p ON p.organization_id = c.organization_id
      WHERE c.kind = 'event' AND c.last_id > coalesce(p.indexed_through, 0)
      UNION
      SELECT b.organization_id FROM search_blocks b WHERE b.stale
    ) behind
    LIMIT ${limit}`;
  return rows.map((row) => row.organizationId);
}

/** The organization's progress row, at 0 when it has none yet: the row both indexer and deletes lock. */
async function ensureProgress(sql: Db, organizationId: string): Promise<void> {
  await sql`
    INSERT INTO search_progress (organization_id, indexed_through) VALUES (${organizationId}, 0)
    ON CONFLICT (organization_id) DO NOTHING`;
}

/**
 * The organization's watermark and its last event id, its progress row locked for this
 * transaction; undefined when another process holds it (that one is indexing the organization,
 * or a delete is marking its blocks). Every event up to `lastId` is committed: the counter moves
 * in the transaction that writes them.
 */
export async function lockProgress(sql: Db, organizationId: string): Promise<{ through: number; lastId: number } | undefined> {
  await ensureProgress(sql, organizationId);
  const [row] = await sql<{ through: number; lastId: number }[]>`
    SELECT p.indexed_through AS through, coalesce(c.last_id, 0) AS "lastId"
    FROM search_progress p
    LEFT JOIN id_counters c ON c.organization_id = p.organization_id AND c.kind = 'event'
    WHERE p.organization_id = ${organizationId}
    FOR UPDATE OF p SKIP LOCKED`;
  return row;
}

/**
 * Taken by a transaction that deletes events, before it deletes them: it waits for an indexer
 * that may be writing their blocks, and keeps the next one off until it commits, so every block
 * that holds a deleted event is one the delete can see and mark stale.
 */
export async function holdSearchBlocks(sql: Db, organizationId: string): Promise<void> {
  await ensureProgress(sql, organizationId);
  await sql`SELECT 1 FROM search_progress WHERE organization_id = ${organizationId} FOR SHARE`;
}

/**
 * For a statement that deletes events, as a CTE over its `gone` CTE (id, project_id): marks the
 * block of each deleted event stale. The first block whose range ends at or after the id holds
 * it if any does; marking a neighbour instead (the event was not in a block yet) only costs a
 * rewrite.
 */
export const markBlocksStale = (sql: Db, organizationId: string) => sql`
    stale_blocks AS (
      UPDATE search_blocks b SET stale = true
      WHERE b.organization_id = ${organizationId} AND NOT b.stale AND b.first_event_id IN (
        SELECT (SELECT s.first_event_id FROM search_blocks s
                WHERE s.organization_id = ${organizationId} AND s.project_id = g.project_id AND s.last_event_id >= g.id
                ORDER BY s.last_event_id LIMIT 1)
        FROM gone g)
    )`;

/** Events of one block, as the database groups them: their ids in order and their documents joined. */
export interface BlockSource {
  projectId: string;
  eventIds: number[];
  /** The events' search documents, joined by a line feed (a word separator). */
  documents: string;
  /** The newest created_at of the events, in microseconds since the epoch (decimal text, exact); null for none. */
  newestMicros: string | null;
}

/**
 * The next `batch` events above the watermark (up to `lastId`), grouped into blocks of up to
 * `perBlock` events of one project in id order. Grouped here, a block is one row: the server
 * parses 32 rows a batch, not 2,048.
 */
export function blocksAbove(
  sql: Db,
  organizationId: string,
  range: { through: number; lastId: number; batch: number; perBlock: number },
): Promise<BlockSource[]> {
  return sql<BlockSource[]>`
    SELECT t.project_id AS "projectId", array_agg(t.id ORDER BY t.id) AS "eventIds",
           string_agg(t.document, E'\n' ORDER BY t.id) AS documents,
           (extract(epoch FROM max(t.created_at)) * 1000000)::bigint::text AS "newestMicros"
    FROM (
      SELECT e.id, e.project_id, e.document, e.created_at,
             (row_number() OVER (PARTITION BY e.project_id ORDER BY e.id) - 1) / ${range.perBlock} AS block
      FROM (
        SELECT e.id, e.project_id, e.created_at, ${searchDocument(sql)} AS document
        FROM events e
        WHERE e.organization_id = ${organizationId} AND e.id > ${range.through} AND e.id <= ${range.lastId}
        ORDER BY e.id LIMIT ${range.batch}
      ) e
    ) t
    GROUP BY t.project_id, t.block
    ORDER BY min(t.id)`;
}

export interface Block {
  projectId: string;
  firstEventId: number;
  lastEventId: number;
  eventIds: number[];
  words: string;
  /** BlockSource's newestMicros: search's bound on the block's events (migrations/127). */
  newestMicros: string | null;
}

/** Writes blocks, one statement; a block written again replaces its words and events. */
export async function writeBlocks(sql: Db, organizationId: string, blocks: Block[]): Promise<void> {
  if (blocks.length === 0) return;
  await sql`
    INSERT INTO search_blocks (organization_id, first_event_id, project_id, last_event_id, event_ids, words, newest_at)
    SELECT ${organizationId}, b.first_event_id, b.project_id, b.last_event_id, b.event_ids::int[], b.words,
           timestamptz 'epoch' + nullif(b.newest_us, '')::int8 * interval '1 microsecond'
    FROM unnest(${blocks.map((b) => b.firstEventId)}::int[], ${blocks.map((b) => b.projectId)}::text[],
                ${blocks.map((b) => b.lastEventId)}::int[], ${blocks.map((b) => `{${b.eventIds.join(',')}}`)}::text[],
                ${blocks.map((b) => b.words)}::text[], ${blocks.map((b) => b.newestMicros ?? '')}::text[])
      AS b(first_event_id, project_id, last_event_id, event_ids, words, newest_us)
    ON CONFLICT (organization_id, first_event_id) DO UPDATE
      SET project_id = excluded.project_id, last_event_id = excluded.last_event_id,
          event_ids = excluded.event_ids, words = excluded.words, newest_at = excluded.newest_at, stale = false`;
}

export async function advanceProgress(sql: Db, organizationId: string, through: number): Promise<void> {
  await sql`UPDATE search_progress SET indexed_through = ${through} WHERE organization_id = ${organizationId}`;
}

/** Up to `limit` stale blocks, each with the events of its that remain (possibly none). */
export function staleBlocks(sql: Db, organizationId: string, limit: number): Promise<Array<BlockSource & { firstEventId: number; lastEventId: number }>> {
  return sql<Array<BlockSource & { firstEventId: number; lastEventId: number }>>`
    SELECT b.first_event_id AS "firstEventId", b.last_event_id AS "lastEventId", b.project_id AS "projectId",
           coalesce(array_agg(e.id ORDER BY e.id) FILTER (WHERE e.id IS NOT NULL), '{}') AS "eventIds",
           coalesce(string_agg(${searchDocument(sql)}, E'\n' ORDER BY e.id), '') AS documents,
           (extract(epoch FROM max(e.created_at)) * 1000000)::bigint::text AS "newestMicros"
    FROM (
      SELECT first_event_id, last_event_id, project_id, event_ids FROM search_blocks
      WHERE organization_id = ${organizationId} AND stale
      ORDER BY first_event_id LIMIT ${limit}
    ) b
    LEFT JOIN events e ON e.organization_id = ${organizationId} AND e.id = ANY(b.event_ids)
    GROUP BY b.first_event_id, b.last_event_id, b.project_id
    ORDER BY b.first_event_id`;
}

/** Removes blocks whose events are all gone. */
export async function deleteBlocks(sql: Db, organizationId: string, firstEventIds: number[]): Promise<void> {
  if (firstEventIds.length === 0) return;
  await sql`
    DELETE FROM search_blocks
    WHERE organization_id = ${organizationId} AND first_event_id = ANY(${firstEventIds}::int[])`;
}

/** Whether the blocks have their trigram index (pg_trgm may be missing; then search scans). */
export async function hasSearchIndex(sql: Db): Promise<boolean> {
  const [row] = await sql<{ present: boolean }[]>`SELECT to_regclass('search_blocks_words') IS NOT NULL AS present`;
  return row?.present ?? false;
}
