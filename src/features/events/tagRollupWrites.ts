import type { TransactionSql } from '../../db/client.ts';
import type { EventDraft } from './validateEventInput.ts';

/**
 * The batch's share of the per-day counts by tag value (decision 131), sent with its other writes
 * only when the organization's counter row says it rolls up tag keys (`rolls_up_tags`, set by
 * registerTagKey): a batch of an organization that charts no tag key pays nothing. The flag is
 * read with the counter row, whose lock the batch holds from taking its ids to its commit: a key
 * registered before that is joined here, one registered after starts counting above this batch's
 * ids, so its backfill counts these events instead.
 */
export function countTagValues(tx: TransactionSql, org: string, drafts: EventDraft[], nowMicros: string, timeZone: string) {
  const rows = drafts.map((d) => {
    const scalars = JSON.stringify({ project_id: d.projectId, category: d.category, created_us: d.createdAtMicros?.toString() ?? nowMicros });
    // The tags' own JSON text, so that numbers reach jsonb as written.
    return `${scalars.slice(0, -1)},"tags":${d.tags ?? 'null'}}`;
  });
  return tx`
    INSERT INTO tag_daily_counts AS d (organization_id, project_id, tag_key, day, category, value, count)
    SELECT k.organization_id, t.project_id, k.tag_key, ((timestamptz 'epoch' + t.created_us * interval '1 microsecond') AT TIME ZONE ${timeZone})::date,
           t.category, t.tags -> k.tag_key, count(*)
    FROM json_to_recordset(${`[${rows.join(',')}]`}::text::json) AS t(project_id text, category text, created_us int8, tags jsonb)
    JOIN tag_rollup_keys k ON k.organization_id = ${org} AND k.project_id = t.project_id
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, coalesce(jsonb_hash_extended(t.tags -> k.tag_key, 0), 0)
    ON CONFLICT (organization_id, project_id, tag_key, day, category, value_hash) DO UPDATE SET count = d.count + excluded.count`;
}
