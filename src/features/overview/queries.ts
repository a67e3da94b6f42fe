import type { Sql } from '../../db/client.ts';

// The projects page's overview: a read model over the projects, the per-day rollup and the feed
// index (docs/architecture.md, "Read models"). It reads other features' tables and writes none.

interface DayActivityRow {
  projectId: string;
  day: string;
  count: number;
}

/**
 * Each live project's events per day over the last `days` days up to today (chart days, in the
 * session's zone), every day present with 0 when it has none: read from the per-day rollup only,
 * at most days x categories rows per project.
 */
export function selectDailyActivity(sql: Sql, organizationId: string, days: number): Promise<DayActivityRow[]> {
  return sql<DayActivityRow[]>`
    SELECT p.id AS "projectId", d.day::date::text AS day, coalesce(sum(c.count), 0)::int AS count
    FROM projects p
    CROSS JOIN generate_series(current_date - ${days - 1}::int, current_date, interval '1 day') AS d(day)
    LEFT JOIN event_daily_counts c ON c.organization_id = p.organization_id AND c.project_id = p.id AND c.day = d.day::date
    WHERE p.organization_id = ${organizationId} AND p.deleted_at IS NULL
    GROUP BY p.id, d.day
    ORDER BY p.id, d.day`;
}

/** Each live project's newest event time: one step down the feed index per project. */
export function selectLastEventTimes(sql: Sql, organizationId: string): Promise<Array<{ projectId: string; lastEventAt: Date | null }>> {
  return sql<Array<{ projectId: string; lastEventAt: Date | null }>>`
    SELECT p.id AS "projectId",
           (SELECT e.created_at FROM events e
            WHERE e.organization_id = p.organization_id AND e.project_id = p.id
            ORDER BY e.created_at DESC, e.id DESC LIMIT 1) AS "lastEventAt"
    FROM projects p
    WHERE p.organization_id = ${organizationId} AND p.deleted_at IS NULL`;
}
