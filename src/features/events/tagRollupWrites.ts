import type { TransactionSql } from '../../db/client.ts';
import type { EventDraft } from './validateEventInput.ts';

// The ingest's share of the per-day counts by tag value (decision 131), apart from the batch's
// other statements: for a batch whose projects roll up no tag key it is one indexed read, sent
// with the batch's writes (no round trip of its own).

/**
 * Adds the batch's events to the per-day counts of their projects' rolled-up tag keys. It runs
 * after the batch took its ids from the organization's counter, whose row lock it holds to its
 * commit: a key registered before that is seen here, one registered after starts counting above
 * this batch's ids (registerTagKey), so its backfill counts these events instead.
 */
export async function countTagValues(tx: TransactionSql, org: string, drafts: EventDraft[], nowMicros: string, timeZone: string): Promise<void> {
  const projectIds = [...new Set(drafts.map((d) => d.projectId))];
  const rolledUp = await tx<{ projectId: string }[]>`
    SELECT DISTINCT project_id AS "projectId" FROM tag_rollup_keys WHERE organization_id = ${org} AND project_id IN ${tx(projectIds)}`;
  if (rolledUp.length === 0) return;
  const projects = new Set(rolledUp.map((row) => row.projectId));
  const rows = drafts
    .filter((d) => projects.has(d.projectId))
    .map((d) => {
      const scalars = JSON.stringify({ project_id: d.projectId, category: d.category, created_us: d.createdAtMicros?.toString() ?? nowMicros });
      // The tags' own JSON text, so that numbers reach jsonb as written.
      return `${scalars.slice(0, -1)},"tags":${d.tags ?? 'null'}}`;
    });
  await tx`
    INSERT INTO tag_daily_counts AS d (organization_id, project_id, tag_key, day, category, value, count)
    SELECT k.organization_id, t.project_id, k.tag_key, ((timestamptz 'epoch' + t.created_us * interval '1 microsecond') AT TIME ZONE ${timeZone})::date,
           t.category, t.tags -> k.tag_key, count(*)
    FROM json_to_recordset(${`[${rows.join(',')}]`}::text::json) AS t(project_id text, category text, created_us int8, tags jsonb)
    JOIN tag_rollup_keys k ON k.organization_id = ${org} AND k.project_id = t.project_id
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, coalesce(jsonb_hash_extended(t.tags -> k.tag_key, 0), 0)
    ON CONFLICT (organization_id, project_id, tag_key, day, category, value_hash) DO UPDATE SET count = d.count + excluded.count`;
}
