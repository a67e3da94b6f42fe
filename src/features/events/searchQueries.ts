import type { Db } from '../../db/client.ts';
import { searchDocument } from './queries.ts';

// The search table (migrations/090_search_table.sql): entries written after the event's commit,
// up to each organization's watermark. The indexer's SQL; search itself is in feedQueries.ts.

/** Organizations with events above their watermark (at most `limit`). */
export async function organizationsBehind(sql: Db, limit: number): Promise<string[]> {
  const rows = await sql<{ organizationId: string }[]>`
    SELECT c.organization_id AS "organizationId" FROM id_counters c
    LEFT JOIN search_progress p ON p.organization_id = c.organization_id
    WHERE c.kind = 'event' AND c.last_id > coalesce(p.indexed_through, 0)
    LIMIT ${limit}`;
  return rows.map((row) => row.organizationId);
}

/**
 * The organization's watermark and its last event id, its progress row locked for this
 * transaction; undefined when another process holds it (that one is indexing the organization).
 * Every event up to `lastId` is committed: the counter moves in the transaction that writes them.
 */
export async function lockProgress(sql: Db, organizationId: string): Promise<{ through: number; lastId: number } | undefined> {
  await sql`
    INSERT INTO search_progress (organization_id, indexed_through) VALUES (${organizationId}, 0)
    ON CONFLICT (organization_id) DO NOTHING`;
  const [row] = await sql<{ through: number; lastId: number }[]>`
    SELECT p.indexed_through AS through, coalesce(c.last_id, 0) AS "lastId"
    FROM search_progress p
    LEFT JOIN id_counters c ON c.organization_id = p.organization_id AND c.kind = 'event'
    WHERE p.organization_id = ${organizationId}
    FOR UPDATE OF p SKIP LOCKED`;
  return row;
}

/**
 * Entries for the next `batch` events above the watermark (up to `lastId`): how many events were
 * taken, and the highest id among them.
 */
export async function indexEvents(
  sql: Db,
  organizationId: string,
  range: { through: number; lastId: number; batch: number },
): Promise<{ count: number; highest: number | null }> {
  const [row] = await sql<{ count: number; highest: number | null }[]>`
    WITH taken AS MATERIALIZED (
      SELECT e.organization_id, e.id, e.project_id, ${searchDocument(sql)} AS document
      FROM events e
      WHERE e.organization_id = ${organizationId} AND e.id > ${range.through} AND e.id <= ${range.lastId}
      ORDER BY e.id LIMIT ${range.batch}
    ), written AS (
      INSERT INTO event_search (organization_id, event_id, project_id, document)
      SELECT organization_id, id, project_id, document FROM taken
      ON CONFLICT (organization_id, event_id) DO NOTHING
    )
    SELECT count(*)::int AS count, max(id) AS highest FROM taken`;
  return row ?? { count: 0, highest: null };
}

export async function advanceProgress(sql: Db, organizationId: string, through: number): Promise<void> {
  await sql`UPDATE search_progress SET indexed_through = ${through} WHERE organization_id = ${organizationId}`;
}

/** Whether the search table has its trigram index (pg_trgm may be missing; then search scans). */
export async function hasSearchIndex(sql: Db): Promise<boolean> {
  const [row] = await sql<{ present: boolean }[]>`SELECT to_regclass('event_search_document') IS NOT NULL AS present`;
  return row?.present ?? false;
}
