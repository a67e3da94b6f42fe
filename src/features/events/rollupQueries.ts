import type { TransactionSql } from '../../db/client.ts';

// Rebuilding the per-day rollups of events (`event_daily_counts`, `tag_daily_counts`): the chart
// time zone's rebuild and a rolled-up tag key's backfill (charts/, decisions 031 and 131). Ingest
// keeps them in `ingest_events`, deletes in deleteQueries.ts.

/** Waits for writers in flight and keeps new ones out until the transaction ends. */
export async function lockDayCounts(tx: TransactionSql): Promise<void> {
  await tx`LOCK TABLE event_daily_counts IN EXCLUSIVE MODE`;
}

export async function clearDayCounts(tx: TransactionSql): Promise<void> {
  await tx`DELETE FROM event_daily_counts`;
}

/**
 * Counts the organization's events with ids in (after, upTo] into day buckets of `timeZone`,
 * adding to what earlier ranges counted. A range of the primary key reads a contiguous stretch
 * of the table, so the whole rebuild reads each event once. Returns how many events it held.
 */
export async function countDayRange(tx: TransactionSql, q: { organizationId: string; after: number; upTo: number; timeZone: string }): Promise<number> {
  const [row] = await tx<{ events: number }[]>`
    WITH counted AS (
      SELECT organization_id, project_id, (created_at AT TIME ZONE ${q.timeZone})::date AS day, category, count(*)::int AS count
      FROM events WHERE organization_id = ${q.organizationId} AND id > ${q.after} AND id <= ${q.upTo}
      GROUP BY 1, 2, 3, 4
    ), written AS (
      INSERT INTO event_daily_counts (organization_id, project_id, day, category, count)
      SELECT organization_id, project_id, day, category, count FROM counted ORDER BY 1, 2, 3, 4
      ON CONFLICT (organization_id, project_id, day, category) DO UPDATE SET count = event_daily_counts.count + excluded.count
    )
    SELECT coalesce(sum(count), 0)::int8::float8 AS events FROM counted`;
  return row?.events ?? 0;
}

/** Empties the counts by tag value, writers kept out until the transaction ends. */
export async function clearTagDayCounts(tx: TransactionSql): Promise<void> {
  await tx`LOCK TABLE tag_daily_counts IN EXCLUSIVE MODE`;
  await tx`DELETE FROM tag_daily_counts`;
}

/**
 * Counts the project's events with ids in (after, upTo] into the key's counts by tag value. A
 * range of the primary key reads a contiguous stretch of the organization's events; rows are
 * written in key order, as ingest writes them.
 */
export async function countTagRange(
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
}
