import type { Db, TransactionSql } from '../../db/client.ts';
import { tagsContain } from '../../db/eventExpressions.ts';

interface CategorySeriesRow {
  category: string;
  /** The category's `[{day, count}]` as JSON text, oldest day first. */
  series: string;
}

/**
 * Per-category, per-day counts of the last `days` days up to today, read from the rollup only:
 * one row per category, its series already JSON text, so that the server neither parses nor
 * builds a row per day (a year of 20 categories is 7,300 of them; decision 031). `current_date`
 * is in the session's time zone, which the client sets to the configured one. Rows emptied by
 * deletes (count 0) are left out. Categories come unordered: the caller sorts them.
 */
export function selectCategorySeries(sql: Db, q: { organizationId: string; projectId: string; days: number; category?: string }): Promise<CategorySeriesRow[]> {
  return sql<CategorySeriesRow[]>`
    SELECT c.category,
           '[' || string_agg('{"day":"' || c.day::text || '","count":' || c.count::text || '}', ',' ORDER BY c.day) || ']' AS series
    FROM event_daily_counts c
    WHERE c.organization_id = ${q.organizationId} AND c.project_id = ${q.projectId}
      AND c.day > current_date - ${q.days}::int AND c.day <= current_date AND c.count > 0
      ${q.category !== undefined ? sql`AND c.category = ${q.category}` : sql``}
    GROUP BY c.category`;
}

export async function anyEventExists(sql: Db): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`SELECT EXISTS (SELECT 1 FROM events) AS found`;
  return row?.found ?? false;
}

/** Any constant: it names the advisory lock that serialises the chart time zone's step across processes. */
const CHART_ZONE_LOCK = 7_427_004;

/** Holds the chart time zone step's advisory lock until the transaction ends (syncChartTimeZone). */
export async function lockChartZoneStep(tx: TransactionSql): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${CHART_ZONE_LOCK})`;
}

/** Each organization's highest event id handed out: the rebuild walks its ids up to it. */
export function lastEventIds(sql: Db): Promise<Array<{ organizationId: string; lastId: number }>> {
  return sql<Array<{ organizationId: string; lastId: number }>>`
    SELECT organization_id AS "organizationId", last_id::int AS "lastId" FROM id_counters
    WHERE kind = 'event' ORDER BY organization_id`;
}

interface ScannedCount {
  /** The category, or with a tag key the value's JSON type and text (both null: no such tag). */
  category?: string;
  type?: string | null;
  text?: string | null;
  day: string;
  count: number;
}

/**
 * Per-day counts read from the events themselves, for what the rollup does not hold: `tag`
 * filters and breakdowns by a tag key (decision 130). The range is the same days as the
 * rollup's, as instants of the session's zone, so PostgreSQL reads it along the feed index
 * (project_id, created_at) or, for tag filters, the `events_tags` index; the cost grows with the
 * events of the range, not of the project. With `tagKey`, rows are grouped by the tag's jsonb
 * value (so 1.50 and 1.5 are one group) and carry its type and text for the caller to write as
 * the feed's `tag` filter compares.
 */
export function scanDaySeries(
  sql: Db,
  q: { organizationId: string; projectId: string; days: number; category?: string; tags: string[][]; tagKey?: string; groupId?: string },
): Promise<ScannedCount[]> {
  const tagFilters = tagsContain(sql, q.tags);
  const matching = sql`
    FROM events e
    WHERE e.organization_id = ${q.organizationId} AND e.project_id = ${q.projectId}
      AND e.created_at >= (current_date - ${q.days - 1}::int)::timestamptz AND e.created_at < (current_date + 1)::timestamptz
      ${q.category !== undefined ? sql`AND e.category = ${q.category}` : sql``}
      ${
        q.groupId === undefined
          ? sql``
          : sql`AND e.user_id IN (SELECT m.user_id FROM app_group_members m
        WHERE m.organization_id = ${q.organizationId} AND m.project_id = ${q.projectId} AND m.group_id = ${q.groupId})`
      }
      ${tagFilters}`;
  if (q.tagKey === undefined) {
    return sql<ScannedCount[]>`
      SELECT e.category, e.created_at::date::text AS day, count(*)::int AS count ${matching}
      GROUP BY e.category, e.created_at::date`;
  }
  return sql<ScannedCount[]>`
    SELECT jsonb_typeof(v.value) AS type, v.value #>> '{}' AS text, v.day::text AS day, count(*)::int AS count
    FROM (SELECT e.tags::jsonb -> ${q.tagKey}::text AS value, e.created_at::date AS day ${matching}) v
    GROUP BY v.value, v.day`;
}
