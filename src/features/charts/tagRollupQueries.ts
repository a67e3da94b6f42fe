import type { Db, TransactionSql } from '../../db/client.ts';
import { tagRollupLockName } from '../../lib/tagRollupLock.ts';

// The per-day counts by tag value of the keys a project charts by (decision 131): registering a
// key, following its backfill, reading it. The counts themselves are the events feature's
// (`tag_daily_counts`): ingest and deletes keep them, and events/rollupRebuild.ts writes them for
// the backfill (tagRollupBackfiller.ts) and the time-zone rebuild (syncChartTimeZone.ts).

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
 * The start of a key's registration (tagRollupReady.ts): waits at most REGISTRATION_WAIT for each
 * lock from here on, then takes the organization's tag-rollup advisory lock, which waits for its
 * deletes in flight and holds new ones until the key is committed.
 */
export async function lockTagRollupRegistration(tx: TransactionSql, organizationId: string): Promise<void> {
  // An import holds the counter for its whole transaction: the chart then reads the events and
  // registers the key on a later request (a lock_not_available error after REGISTRATION_WAIT).
  // Citus passes a SET LOCAL on to the workers, where the counter row is, only when told to.
  await tx`SELECT set_config('citus.propagate_set_commands', 'local', true)`;
  await tx.unsafe(`SET LOCAL lock_timeout = '${REGISTRATION_WAIT}'`);
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${tagRollupLockName(organizationId)}, 0))`;
}

/** The key's row, ingest counting the project's events above `countedAfterId`; nothing when it is registered already. */
export async function insertTagKey(
  tx: TransactionSql,
  q: { organizationId: string; projectId: string; tagKey: string; countedAfterId: number },
): Promise<void> {
  await tx`
    INSERT INTO tag_rollup_keys (organization_id, project_id, tag_key, counted_after_id)
    SELECT p.organization_id, p.id, ${q.tagKey}, ${q.countedAfterId} FROM projects p
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

/** Records the key's backfill done up to event id `upTo`; the caller holds the row (lockTagKey). */
export async function setTagKeyBackfilled(tx: TransactionSql, q: { organizationId: string; projectId: string; tagKey: string; upTo: number }): Promise<void> {
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

/** The time-zone rebuild's first hold (syncChartTimeZone): no key is registered or backfilled until it ends. */
export async function lockTagKeys(tx: TransactionSql): Promise<void> {
  await tx`LOCK TABLE tag_rollup_keys IN EXCLUSIVE MODE`;
}

/**
 * The time-zone rebuild's part, once the counts by tag value are emptied: every key is backfilled
 * again, in the new zone, from its organization's last event id (`lastIds`); ingest counts the
 * events after it.
 */
export async function restartTagKeys(tx: TransactionSql, lastIds: Array<{ organizationId: string; lastId: number }>): Promise<void> {
  for (const { organizationId, lastId } of lastIds) {
    await tx`UPDATE tag_rollup_keys SET counted_after_id = ${lastId}, backfilled_up_to = 0 WHERE organization_id = ${organizationId}`;
  }
}
