import type { Db } from '../../db/client.ts';

/** How a delivery that just ended bears on its destination (destinations/deliveryOutcome.ts). */
export interface EndedDelivery {
  organizationId: string;
  destinationId: string;
  at: Date;
  status: number | null;
  error: string | null;
  succeeded: boolean;
  failed: boolean;
  /** Test deliveries neither count in the run of failures nor reset it. */
  counts: boolean;
  disableAfter: number;
  disabledReason: string;
}

/**
 * The destination's last status (unless a later ending was recorded first) and its run of
 * consecutive failures, which disables it when the run reaches disableAfter. The row is locked by
 * this UPDATE, so concurrent endings of its deliveries count one after the other. Answers the
 * destination's project when this ending switched it off.
 */
export async function updateDestinationOutcome(sql: Db, r: EndedDelivery): Promise<{ projectId: string } | undefined> {
  const newer = sql`(d.last_at IS NULL OR d.last_at <= ${r.at})`;
  const reachesRun = sql`(${r.counts && r.failed} AND d.enabled AND d.failure_run + 1 >= ${r.disableAfter})`;
  const [row] = await sql<{ projectId: string; disabledNow: boolean }[]>`
    UPDATE destinations d SET
      last_ok = CASE WHEN ${newer} THEN ${r.succeeded} ELSE d.last_ok END,
      last_at = CASE WHEN ${newer} THEN ${r.at}::timestamptz ELSE d.last_at END,
      last_status = CASE WHEN ${newer} THEN ${r.status}::int ELSE d.last_status END,
      last_error = CASE WHEN ${newer} THEN ${r.error}::text ELSE d.last_error END,
      failure_run = CASE WHEN NOT ${r.counts} THEN d.failure_run WHEN ${r.failed} THEN d.failure_run + 1 ELSE 0 END,
      enabled = CASE WHEN ${reachesRun} THEN false ELSE d.enabled END,
      disabled_reason = CASE WHEN ${reachesRun} THEN ${r.disabledReason}::text ELSE d.disabled_reason END
    WHERE d.organization_id = ${r.organizationId} AND d.id = ${r.destinationId}
    -- RETURNING sees the new row: the run has just reached the limit and switched it off.
    RETURNING d.project_id AS "projectId",
              (${r.counts && r.failed} AND d.failure_run = ${r.disableAfter} AND NOT d.enabled AND d.disabled_reason IS NOT NULL) AS "disabledNow"`;
  return row?.disabledNow ? { projectId: row.projectId } : undefined;
}
