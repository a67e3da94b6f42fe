import { type Db, type TransactionSql, withTransaction } from '../../db/client.ts';
import { tagRollupLockName } from '../../lib/tagRollupLock.ts';
import { holdSearchBlocks, markBlocksStale } from './searchQueries.ts';

// Deleting events (one by the API, many by retention) and the counts that must follow them.

// ---- The per-day counts by tag value (decision 131) ----------------------------------------------

/**
 * Run first in a transaction that deletes events; says whether the organization (or the project)
 * rolls up any tag key. The shared advisory lock keeps a key from being registered meanwhile
 * (registration takes it exclusively), so the delete sees every key whose backfill could count
 * its events; the keys' rows are held in share mode, so no backfill step runs between the delete
 * reading how far a backfill got and its commit.
 */
async function holdTagRollupKeys(tx: TransactionSql, organizationId: string, projectId?: string): Promise<boolean> {
  const [, keys] = await Promise.all([
    tx`SELECT pg_advisory_xact_lock_shared(hashtextextended(${tagRollupLockName(organizationId)}, 0))`,
    tx`SELECT 1 FROM tag_rollup_keys WHERE organization_id = ${organizationId}
       ${projectId !== undefined ? tx`AND project_id = ${projectId}` : tx``} FOR SHARE`,
  ]);
  return keys.length > 0;
}

/**
 * CTEs over the deleting statement's `gone`: subtract the events from the counts of each rolled-up
 * key that holds them, those ingest counted (ids above `counted_after_id`) and those the backfill
 * already did (up to `backfilled_up_to`); the rest the backfill will not find. Rows are locked in
 * key order first, as ingest writes them.
 */
const forgetDeletedTagValues = (sql: Db, organizationId: string) => sql`
    gone_tags AS (
      SELECT g.organization_id, g.project_id, k.tag_key, g.day, g.category, g.tags::jsonb -> k.tag_key AS value, count(*)::int AS n
      FROM gone g
      JOIN tag_rollup_keys k ON k.organization_id = ${organizationId} AND k.organization_id = g.organization_id AND k.project_id = g.project_id
      WHERE g.id > k.counted_after_id OR g.id <= k.backfilled_up_to
      GROUP BY 1, 2, 3, 4, 5, 6
    ),
    locked_tags AS (
      SELECT c.organization_id, c.project_id, c.tag_key, c.day, c.category, c.value_hash, g.n FROM tag_daily_counts c
      JOIN gone_tags g ON c.organization_id = g.organization_id AND c.project_id = g.project_id AND c.tag_key = g.tag_key
                      AND c.day = g.day AND c.category = g.category AND c.value_hash = coalesce(jsonb_hash_extended(g.value, 0), 0)
      WHERE c.organization_id = ${organizationId}
      ORDER BY 1, 2, 3, 4, 5, 6 FOR UPDATE OF c
    ),
    tags_counted AS (
      UPDATE tag_daily_counts c SET count = c.count - g.n
      FROM locked_tags g
      WHERE c.organization_id = ${organizationId} AND c.organization_id = g.organization_id AND c.project_id = g.project_id
        AND c.tag_key = g.tag_key AND c.day = g.day AND c.category = g.category AND c.value_hash = g.value_hash
    )`;

// ---- Deleting events -------------------------------------------------------------------------------

/**
 * What a statement that deletes events must also do, as CTEs over its `gone` CTE (organization_id,
 * id, project_id, category, day, user_id, created_at, tags): take them out of the per-day counts,
 * of the counts by tag value when the organization rolls up tag keys, and of their users' counts,
 * move a user's first/last event time when it was a deleted one, and mark their search blocks
 * stale (the caller holds the blocks first: holdSearchBlocks). The subqueries see the statement's
 * snapshot, where the deleted rows still exist, so they skip them by id. Rows are locked in key
 * order first, as the insert does, so that a delete or a prune and a concurrent batch cannot
 * deadlock. Every table is also filtered by the organization itself, not
 * only joined to `gone`: so Citus routes the whole statement to the organization's shard (it
 * refuses a FOR UPDATE it would have to run on several).
 */
const forgetDeletedEvents = (sql: Db, organizationId: string, rolledUp: boolean) => sql`
    gone_days AS (
      SELECT organization_id, project_id, day, category, count(*)::int AS n FROM gone GROUP BY 1, 2, 3, 4
    ),
    locked_days AS (
      SELECT c.organization_id, c.project_id, c.day, c.category, g.n FROM event_daily_counts c
      JOIN gone_days g ON c.organization_id = g.organization_id AND c.project_id = g.project_id AND c.day = g.day
                      AND c.category = g.category
      WHERE c.organization_id = ${organizationId}
      ORDER BY 1, 2, 3, 4 FOR UPDATE OF c
    ),
    counted AS (
      UPDATE event_daily_counts c SET count = c.count - g.n
      FROM locked_days g
      WHERE c.organization_id = ${organizationId} AND c.organization_id = g.organization_id AND c.project_id = g.project_id AND c.day = g.day
        AND c.category = g.category
    ),
    gone_users AS (
      SELECT organization_id, project_id, user_id, count(*)::int AS n, min(created_at) AS first_gone, max(created_at) AS last_gone
      FROM gone WHERE user_id IS NOT NULL GROUP BY 1, 2, 3
    ),
    locked_users AS (
      SELECT g.* FROM app_users u
      JOIN gone_users g ON u.organization_id = g.organization_id AND u.project_id = g.project_id AND u.user_id = g.user_id
      WHERE u.organization_id = ${organizationId}
      ORDER BY 1, 2, 3 FOR UPDATE OF u
    ),
    users_counted AS (
      UPDATE app_users u SET
        event_count = greatest(u.event_count - g.n, 0),
        first_event_at = CASE WHEN u.first_event_at < g.first_gone THEN u.first_event_at ELSE (
          SELECT min(e.created_at) FROM events e
          WHERE e.organization_id = ${organizationId} AND e.project_id = g.project_id AND e.user_id = g.user_id
            AND e.id NOT IN (SELECT id FROM gone)) END,
        last_event_at = CASE WHEN u.last_event_at > g.last_gone THEN u.last_event_at ELSE (
          SELECT max(e.created_at) FROM events e
          WHERE e.organization_id = ${organizationId} AND e.project_id = g.project_id AND e.user_id = g.user_id
            AND e.id NOT IN (SELECT id FROM gone)) END
      FROM locked_users g
      WHERE u.organization_id = ${organizationId} AND u.organization_id = g.organization_id AND u.project_id = g.project_id AND u.user_id = g.user_id
    ),
    ${markBlocksStale(sql, organizationId)}${rolledUp ? sql`, ${forgetDeletedTagValues(sql, organizationId)}` : sql``}`;

/**
 * Deletes the caller's event and takes it out of the per-day counts and its user's counts in the
 * same statement. The day is computed with the chart time zone spelled out: a distributed engine
 * refuses the session-dependent `created_at::date` in RETURNING.
 */
export async function deleteEvent(
  sql: Db,
  q: { organizationId: string; eventId: number; timeZone: string },
): Promise<{ id: number; projectId: string } | undefined> {
  const { organizationId, eventId } = q;
  return withTransaction(sql, async (tx) => {
    const rolledUp = await holdTagRollupKeys(tx, organizationId);
    await holdSearchBlocks(tx, organizationId);
    const [row] = await tx<{ id: number; projectId: string }[]>`
    WITH gone AS (
      DELETE FROM events e
      WHERE e.organization_id = ${organizationId} AND e.id = ${eventId}
        AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.organization_id = e.organization_id AND p.id = e.project_id AND p.deleted_at IS NOT NULL)
      RETURNING e.organization_id, e.id, e.project_id, e.category, (e.created_at AT TIME ZONE ${q.timeZone})::date AS day,
                e.user_id, e.created_at, e.tags
    ), ${forgetDeletedEvents(tx, organizationId, rolledUp)}
    SELECT id, project_id AS "projectId" FROM gone`;
    return row;
  });
}

/**
 * Retention: deletes up to `batch` of the project's events created before `retentionDays` x 24 h
 * ago, oldest first, exactly as deleteEvent does. Rows another process is deleting are skipped
 * (SKIP LOCKED), so two pruners never wait for each other nor delete a row twice. Returns how many
 * were deleted.
 */
export async function pruneEvents(
  sql: Db,
  q: { organizationId: string; projectId: string; retentionDays: number; batch: number; timeZone: string },
): Promise<number> {
  return withTransaction(sql, async (tx) => {
    const rolledUp = await holdTagRollupKeys(tx, q.organizationId, q.projectId);
    await holdSearchBlocks(tx, q.organizationId);
    const [row] = await tx<{ pruned: number }[]>`
    WITH batch AS (
      SELECT e.organization_id, e.id FROM events e
      WHERE e.organization_id = ${q.organizationId} AND e.project_id = ${q.projectId}
        AND e.created_at < now() - ${q.retentionDays} * interval '24 hours'
      ORDER BY e.created_at, e.id LIMIT ${q.batch}
      FOR UPDATE SKIP LOCKED
    ), gone AS (
      DELETE FROM events e USING batch b
      WHERE e.organization_id = ${q.organizationId} AND e.organization_id = b.organization_id AND e.id = b.id
      RETURNING e.organization_id, e.id, e.project_id, e.category, (e.created_at AT TIME ZONE ${q.timeZone})::date AS day,
                e.user_id, e.created_at, e.tags
    ), ${forgetDeletedEvents(tx, q.organizationId, rolledUp)}
    SELECT count(*)::int AS pruned FROM gone`;
    return row?.pruned ?? 0;
  });
}

/** Every project with a retention period, across organizations: the pruner's work list. */
export function projectsWithRetention(sql: Db): Promise<Array<{ organizationId: string; projectId: string; retentionDays: number }>> {
  return sql<Array<{ organizationId: string; projectId: string; retentionDays: number }>>`
    SELECT organization_id AS "organizationId", id AS "projectId", retention_days AS "retentionDays"
    FROM projects WHERE retention_days IS NOT NULL AND deleted_at IS NULL ORDER BY organization_id, id`;
}

/**
 * Whether this transaction may prune the project: one process at a time per project, the others
 * skip it instead of waiting (the lock ends with the transaction).
 */
export async function tryLockProjectForPruning(tx: Db, organizationId: string, projectId: string): Promise<boolean> {
  const [row] = await tx<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(hashtextextended('eventlog.retention/' || ${organizationId} || '/' || ${projectId}, 0)) AS locked`;
  return row!.locked;
}

/**
 * A deleted project's purge: deletes up to `limit` of its events (their outbox rows go with them)
 * and answers how many, leaving the counts alone (the project's rows all go after). Rows another
 * purger holds are skipped, so two processes never wait on each other.
 */
export async function deleteEventsOfDeletedProject(sql: Db, organizationId: string, projectId: string, limit: number): Promise<number> {
  const rows = await sql`
    DELETE FROM events e
    WHERE e.organization_id = ${organizationId} AND (e.organization_id, e.id) IN (
      SELECT b.organization_id, b.id FROM events b
      JOIN projects p ON p.organization_id = b.organization_id AND p.id = b.project_id AND p.deleted_at IS NOT NULL
      WHERE b.organization_id = ${organizationId} AND b.project_id = ${projectId}
      LIMIT ${limit} FOR UPDATE OF b SKIP LOCKED)
    RETURNING e.id`;
  return rows.length;
}
