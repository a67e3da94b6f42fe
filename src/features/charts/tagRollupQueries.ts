import type { Db, TransactionSql } from '../../db/client.ts';
import { tagRollupLockName } from '../../lib/tagRollupLock.ts';

// The per-day counts by tag value of the keys a project charts by (decision 131): registering a
// key, backfilling it, reading it. Ingest and deletes keep it in events/queries.ts and
// events/deleteQueries.ts, the time-zone rebuild in syncChartTimeZone.ts.

interface TagKeyState {
  /** Ingest counts the events above this id; the backfill those up to it. */
  countedAfterId: number;
  backfilledUpTo: number;
}

export async function findTagKey(sql: Db, q: { organizationId: string; projectId: string; tagKey: string }): Promise<TagKeyState | undefined> {
  const [row] = await sql<TagKeyState[]>`
    SELECT counted_after_id AS "countedAfterId", backfilled_up_to AS "backfilledUpTo" FROM tag_rollup_keys
    WHERE organization_id = ${q.organizationId} AND project_id = ${q.projectId} AND tag_key = ${q.tagKey}`;
  return row;
}

export async function countTagKeys(sql: Db, q: { organizationId: string; projectId: string }): Promise<number> {
  const [row] = await sql<{ keys: number }[]>`
    SELECT count(*)::int AS keys FROM tag_rollup_keys WHERE organization_id = ${q.organizationId} AND project_id = ${q.projectId}`;
  return row?.keys ?? 0;
}

/** How long registering a key waits for the organization's counter and deletes in flight. */
const REGISTRATION_WAIT = '2s';

/**
 * Registers the key, ingest counting from the organization's next event id on. The counter row is
 * locked first, and marked `rolls_up_tags` (the upsert also creates it): every ingest transaction
 * holds it from taking its ids to its commit, so those that took ids up to `counted_after_id` have
 * committed without seeing the key, and those after it read the mark with their ids and join the
 * keys, this one included.
 * The backfill counts the first, ingest the second: each event exactly once. The advisory lock
 * waits for the organization's deletes in flight and holds new ones until the key is committed,
 * so every delete that could remove an event the backfill counts sees the key (holdTagRollupKeys).
 */
export async function registerTagKey(tx: TransactionSql, q: { organizationId: string; projectId: string; tagKey: string }): Promise<void> {
  // An import holds the counter for its whole transaction: the chart then reads the events and
  // registers the key on a later request (a lock_not_available error after REGISTRATION_WAIT).
  // Citus passes a SET LOCAL on to the workers, where the counter row is, only when told to.
  await tx`SELECT set_config('citus.propagate_set_commands', 'local', true)`;
  await tx.unsafe(`SET LOCAL lock_timeout = '${REGISTRATION_WAIT}'`);
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${tagRollupLockName(q.organizationId)}, 0))`;
  const [counter] = await tx<{ lastId: number }[]>`
    INSERT INTO id_counters AS c (organization_id, kind, last_id, rolls_up_tags) VALUES (${q.organizationId}, 'event', 0, true)
    ON CONFLICT (organization_id, kind) DO UPDATE SET rolls_up_tags = true
    RETURNING c.last_id::int AS "lastId"`;
  await tx`
    INSERT INTO tag_rollup_keys (organization_id, project_id, tag_key, counted_after_id)
    SELECT p.organization_id, p.id, ${q.tagKey}, ${counter!.lastId} FROM projects p
    WHERE p.organization_id = ${q.organizationId} AND p.id = ${q.projectId}
    ON CONFLICT DO NOTHING`;
}

/**
 * Locks the key's row and reads how far its backfill got: a backfill step holds it to the end of
 * its transaction, so two processes never count a range twice, and a delete (which takes it in
 * share mode first) sees either the step's range counted or not yet read.
 */
export async function lockTagKey(tx: TransactionSql, q: { organizationId: string; projectId: string; tagKey: string }): Promise<TagKeyState | undefined> {
  const [row] = await tx<TagKeyState[]>`
    SELECT counted_after_id AS "countedAfterId", backfilled_up_to AS "backfilledUpTo" FROM tag_rollup_keys
    WHERE organization_id = ${q.organizationId} AND project_id = ${q.projectId} AND tag_key = ${q.tagKey}
    FOR UPDATE`;
  return row;
}

/**
 * Counts the project's events with ids in (after, upTo] into the key's rollup and records the
 * range done. A range of the primary key reads a contiguous stretch of the organization's events.
 */
export async function backfillTagRange(
  tx: TransactionSql,
  q: { organizationId: string; projectId: string; tagKey: string; after: number; upTo: number; timeZone: string },
): Promise<void> {
  await tx`
    INSERT INTO tag_daily_counts AS d (organization_id, project_id, tag_key, day, category, value, count)
    SELECT v.organization_id, v.project_id, ${q.tagKey}::text, v.day, v.category, v.value, count(*)
    FROM (
      SELECT e.organization_id, e.project_id, (e.created_at AT TIME ZONE ${q.timeZone})::date AS day, e.category,
             e.tags::jsonb -> ${q.tagKey}::text AS value
      FROM events e
      WHERE e.organization_id = ${q.organizationId} AND e.project_id = ${q.projectId} AND e.id > ${q.after} AND e.id <= ${q.upTo}
    ) v
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, coalesce(jsonb_hash_extended(v.value, 0), 0)
    ON CONFLICT (organization_id, project_id, tag_key, day, category, value_hash) DO UPDATE SET count = d.count + excluded.count`;
  await tx`
    UPDATE tag_rollup_keys SET backfilled_up_to = ${q.upTo}
    WHERE organization_id = ${q.organizationId} AND project_id = ${q.projectId} AND tag_key = ${q.tagKey}`;
}

interface TagCount {
  /** The value's JSON type and text (both null: no such tag). */
  type: string | null;
  text: string | null;
  day: string;
  count: number;
}

/**
 * What scanDaySeries answers for a breakdown without tag filters, read from the rollup: the same
 * days (of the session's zone, which is the chart zone), grouped by the jsonb value.
 */
export function selectTagSeries(
  sql: Db,
  q: { organizationId: string; projectId: string; tagKey: string; days: number; category?: string },
): Promise<TagCount[]> {
  return sql<TagCount[]>`
    SELECT jsonb_typeof(c.value) AS type, c.value #>> '{}' AS text, c.day::text AS day, sum(c.count)::int AS count
    FROM tag_daily_counts c
    WHERE c.organization_id = ${q.organizationId} AND c.project_id = ${q.projectId} AND c.tag_key = ${q.tagKey}
      AND c.day > current_date - ${q.days}::int AND c.day <= current_date
      ${q.category !== undefined ? sql`AND c.category = ${q.category}` : sql``}
    GROUP BY c.value, c.day
    HAVING sum(c.count) > 0`;
}

/**
 * The time-zone rebuild's part (syncChartTimeZone): with ingest held by the day counts' lock,
 * empties the counts by tag value and has every key backfilled again, in the new zone, from its
 * organization's last event id (`lastIds`); ingest counts the events after it.
 */
export async function restartTagBackfills(tx: TransactionSql, lastIds: Array<{ organizationId: string; lastId: number }>): Promise<void> {
  await tx`LOCK TABLE tag_rollup_keys, tag_daily_counts IN EXCLUSIVE MODE`;
  await tx`DELETE FROM tag_daily_counts`;
  for (const { organizationId, lastId } of lastIds) {
    await tx`UPDATE tag_rollup_keys SET counted_after_id = ${lastId}, backfilled_up_to = 0 WHERE organization_id = ${organizationId}`;
  }
}
