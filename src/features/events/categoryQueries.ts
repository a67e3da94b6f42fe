import type { Db } from '../../db/client.ts';

/** Every category of the project with its all-time count, read from the per-day counts. */
export function categoryCounts(sql: Db, organizationId: string, projectId: string): Promise<Array<{ name: string; count: number }>> {
  return sql<Array<{ name: string; count: number }>>`
    SELECT c.name, coalesce(sum(d.count), 0)::int AS count
    FROM categories c
    LEFT JOIN event_daily_counts d
      ON d.organization_id = c.organization_id AND d.project_id = c.project_id AND d.category = c.name
    WHERE c.organization_id = ${organizationId} AND c.project_id = ${projectId}
    GROUP BY c.name ORDER BY c.name`;
}
