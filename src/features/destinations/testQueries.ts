import type { Db, TransactionSql } from '../../db/client.ts';
import type { NewDelivery } from '../delivery/deliveryRecord.ts';

// The Test action's SQL: its rate limit and its delivery, created already leased.

/**
 * The destination's Test deliveries of the last `windowSeconds`, counted under a lock on the
 * destination's row so that concurrent Tests (from any process) count one after the other:
 * `count` of them, and the seconds until the oldest of the newest `limit` leaves the window.
 * Undefined when the destination is not the organization's. Test deliveries carry event id 0
 * and are read along the deliveries_by_event index.
 */
export async function lockAndCountTests(
  tx: TransactionSql,
  q: { organizationId: string; destinationId: string; windowSeconds: number; limit: number },
): Promise<{ count: number; freeInSeconds: number } | undefined> {
  const [locked] = await tx`
    SELECT d.id FROM destinations d WHERE d.organization_id = ${q.organizationId} AND d.id = ${q.destinationId} FOR UPDATE`;
  if (!locked) return undefined;
  const [row] = await tx<{ count: number; freeInSeconds: number | null }[]>`
    SELECT count(*)::int AS count,
           ceil(extract(epoch FROM min(r.created_at) + ${q.windowSeconds} * interval '1 second' - now()))::int AS "freeInSeconds"
    FROM (
      SELECT l.created_at FROM deliveries l
      WHERE l.organization_id = ${q.organizationId} AND l.destination_id = ${q.destinationId} AND l.event_id = 0
        AND l.created_at > now() - ${q.windowSeconds} * interval '1 second'
      ORDER BY l.created_at DESC LIMIT ${q.limit}
    ) r`;
  return { count: row?.count ?? 0, freeInSeconds: Math.max(1, row?.freeInSeconds ?? 1) };
}

/** A Test delivery: created already leased to the caller, who sends it at once. */
export async function insertLeasedDelivery(
  sql: Db,
  row: NewDelivery & { leaseToken: string; leaseMs: number },
): Promise<void> {
  await sql`
    INSERT INTO deliveries (organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, next_attempt_at,
                            locked_until, lease_token)
    VALUES (${row.organizationId}, ${row.id}, ${row.destinationId}, ${row.eventId}, ${row.webhookId}, ${row.body},
            ${row.maxAttempts}, now(), now() + ${row.leaseMs} * interval '1 millisecond', ${row.leaseToken})`;
}
