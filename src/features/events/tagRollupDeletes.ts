import type { Db, TransactionSql } from '../../db/client.ts';
import { tagRollupLockName } from '../../lib/tagRollupLock.ts';

// What deleting events does to the per-day counts by tag value (decision 131).

/**
 * Run first in a transaction that deletes events; says whether the organization (or the project)
 * rolls up any tag key. The shared advisory lock keeps a key from being registered meanwhile
 * (registration takes it exclusively), so the delete sees every key whose backfill could count
 * its events; the keys' rows are held in share mode, so no backfill step runs between the delete
 * reading how far a backfill got and its commit.
 */
export async function holdTagRollupKeys(tx: TransactionSql, organizationId: string, projectId?: string): Promise<boolean> {
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
export const forgetDeletedTagValues = (sql: Db, organizationId: string) => sql`
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
