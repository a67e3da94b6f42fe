import type { Db, Sql } from '../../db/client.ts';
import type { ClaimedDelivery } from '../../ports.ts';

// Webhook deliveries as the worker sends them: lease, record each attempt, prune the log.

/**
 * Leases due deliveries (locked_until), which keeps other claimers off until this process records
 * the attempt or its lease runs out. The outer WHERE repeats the subquery's conditions: a
 * concurrent claimer that picked the same rows waits on their row locks, and then this re-check,
 * evaluated on the rows as they are after the first claimer's commit, makes it skip them.
 */
export function claimDueDeliveries(sql: Sql, q: { limit: number; leaseMs: number; leaseToken: string }): Promise<ClaimedDelivery[]> {
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
export async function pruneFinishedDeliveries(sql: Sql, q: { olderThanMs: number; limit: number }): Promise<number> {
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
}

/**
 * Records an attempt in one statement: the delivery's new state and the attempt log row. Answers
 * the delivery's destination, or undefined when the lease was lost (another process took the
 * delivery over): then nothing was written.
 */
export async function recordAttempt(sql: Db, r: AttemptRecord): Promise<string | undefined> {
  // Chosen here rather than by a CASE around now() in the SET list.
  const nextAttemptAt = r.outcome !== 'pending' ? sql`NULL` : sql`now() + ${r.retryInMs} * interval '1 millisecond'`;
  const [row] = await sql<{ destinationId: string }[]>`
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
    )
    SELECT destination_id AS "destinationId" FROM l`;
  return row?.destinationId;
}
