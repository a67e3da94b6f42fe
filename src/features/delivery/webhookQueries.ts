import type { Sql } from '../../db/client.ts';
import type { ClaimedDelivery } from '../../ports.ts';

// Webhook deliveries as the worker sends them: lease, record each attempt, prune the log.

/**
 * Leases due deliveries (locked_until), which keeps other claimers off until this process records
 * the attempt or its lease runs out. The outer WHERE repeats the subquery's conditions: a
 * concurrent claimer that picked the same rows waits on their row locks, and then this re-check,
 * evaluated on the rows as they are after the first claimer's commit, makes it skip them.
 */
export function claimDueDeliveries(
  sql: Sql,
  q: { limit: number; leaseMs: number; leaseToken: string },
): Promise<ClaimedDelivery[]> {
  return sql<ClaimedDelivery[]>`
    UPDATE deliveries l
    SET locked_until = now() + ${q.leaseMs} * interval '1 millisecond', lease_token = ${q.leaseToken}
    FROM destinations d
    WHERE (l.organization_id, l.id) IN (
      SELECT c.organization_id, c.id FROM deliveries c
      WHERE c.status = 'pending' AND c.next_attempt_at <= now()
        AND (c.locked_until IS NULL OR c.locked_until < now())
      ORDER BY c.next_attempt_at LIMIT ${q.limit}
    )
      AND l.status = 'pending' AND l.next_attempt_at <= now()
      AND (l.locked_until IS NULL OR l.locked_until < now())
      AND d.organization_id = l.organization_id AND d.id = l.destination_id
    RETURNING l.organization_id AS "organizationId", l.id, l.lease_token AS "leaseToken", l.event_id AS "eventId",
              l.webhook_id AS "webhookId",
              l.body, l.attempts, l.max_attempts AS "maxAttempts", d.id AS "destinationId", d.url, d.format, d.secret,
              d.enabled`;
}

/** Deletes up to `limit` finished deliveries created over `olderThanMs` ago; attempts cascade. */
export async function pruneFinishedDeliveries(
  sql: Sql,
  q: { olderThanMs: number; limit: number },
): Promise<number> {
  const deleted = await sql`
    DELETE FROM deliveries WHERE (organization_id, id) IN (
      SELECT c.organization_id, c.id FROM deliveries c
      WHERE c.status <> 'pending' AND c.created_at < now() - ${q.olderThanMs} * interval '1 millisecond'
      LIMIT ${q.limit})`;
  return deleted.count;
}

interface AttemptRecord {
  organizationId: string;
  deliveryId: string;
  leaseToken: string;
  at: Date;
  status: number | null;
  durationMs: number | null;
  error: string | null;
  response: string | null;
  note: string | null;
  outcome: 'pending' | 'succeeded' | 'failed';
  /** Wait before the next attempt, when outcome is pending. */
  retryInMs: number;
  /**
   * Whether the delivery was really sent (the destination was enabled when it was claimed). Only
   * such a delivery, when it ends, becomes the destination's lastStatus and counts in its run of
   * failures; a "Not sent" one keeps both as they were.
   */
  sent: boolean;
  /** Test deliveries (event id 0) neither count in the run of failures nor reset it. */
  isTest: boolean;
  /** The run of consecutive failed deliveries that disables the destination. */
  disableAfter: number;
  /** Saved as disabledReason when this attempt's delivery completes the run. */
  disabledReason: string;
}

/** What recording an attempt came to. */
interface Recorded {
  /** False when the lease was lost (another process took the delivery over): nothing was written. */
  recorded: boolean;
  /** The destination this attempt disabled automatically, if it did. */
  disabled: { destinationId: string; projectId: string } | null;
}

/**
 * Records an attempt and its consequence in one statement: the delivery's new state, the attempt
 * log row and, when the delivery ended, the destination's last status and its run of consecutive
 * failures, which disables it when the run reaches disableAfter. The destination's row is locked
 * by this UPDATE, so concurrent endings of its deliveries count one after the other.
 */
export async function recordAttempt(sql: Sql, r: AttemptRecord): Promise<Recorded> {
  const ended = r.outcome !== 'pending';
  const failed = r.outcome === 'failed';
  // Chosen here rather than by a CASE around now() in the SET list.
  const nextAttemptAt = ended ? sql`NULL` : sql`now() + ${r.retryInMs} * interval '1 millisecond'`;
  const updatesDestination = ended && r.sent;
  const counts = !r.isTest;
  const newer = sql`(d.last_at IS NULL OR d.last_at <= ${r.at})`;
  const reachesRun = sql`(${counts && failed} AND d.enabled AND d.failure_run + 1 >= ${r.disableAfter})`;
  const rows = await sql<{ id: string; disabledDestination: string | null; projectId: string | null }[]>`
    WITH l AS (
      UPDATE deliveries SET
        attempts = attempts + 1,
        status = ${r.outcome},
        next_attempt_at = ${nextAttemptAt},
        locked_until = NULL,
        lease_token = NULL
      WHERE organization_id = ${r.organizationId} AND id = ${r.deliveryId} AND lease_token = ${r.leaseToken}
      RETURNING organization_id, id, destination_id, attempts
    ), logged AS (
      INSERT INTO delivery_attempts (organization_id, delivery_id, attempt, at, status, duration_ms, error, response, note)
      SELECT organization_id, id, attempts, ${r.at}, ${r.status}, ${r.durationMs}, ${r.error}, ${r.response}, ${r.note} FROM l
    ), destination AS (
      UPDATE destinations d SET
        last_ok = CASE WHEN ${newer} THEN ${r.outcome === 'succeeded'} ELSE d.last_ok END,
        last_at = CASE WHEN ${newer} THEN ${r.at}::timestamptz ELSE d.last_at END,
        last_status = CASE WHEN ${newer} THEN ${r.status}::int ELSE d.last_status END,
        last_error = CASE WHEN ${newer} THEN ${r.error}::text ELSE d.last_error END,
        failure_run = CASE WHEN NOT ${counts} THEN d.failure_run WHEN ${failed} THEN d.failure_run + 1 ELSE 0 END,
        enabled = CASE WHEN ${reachesRun} THEN false ELSE d.enabled END,
        disabled_reason = CASE WHEN ${reachesRun} THEN ${r.disabledReason}::text ELSE d.disabled_reason END
      FROM l
      WHERE d.organization_id = ${r.organizationId} AND d.organization_id = l.organization_id AND d.id = l.destination_id
        AND ${updatesDestination}
      -- RETURNING sees the new row: the run has just reached the limit and switched it off.
      RETURNING d.id, d.project_id,
                (${counts && failed} AND d.failure_run = ${r.disableAfter} AND NOT d.enabled AND d.disabled_reason IS NOT NULL) AS disabled_now
    )
    SELECT l.id, (SELECT x.id FROM destination x WHERE x.disabled_now) AS "disabledDestination",
           (SELECT x.project_id FROM destination x WHERE x.disabled_now) AS "projectId"
    FROM l`;
  const [row] = rows;
  if (!row) return { recorded: false, disabled: null };
  return { recorded: true, disabled: row.disabledDestination ? { destinationId: row.disabledDestination, projectId: row.projectId as string } : null };
}
