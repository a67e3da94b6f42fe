import type { TransactionSql } from '../../db/client.ts';

// The Test action's rate limit; its delivery, created already leased, is the delivery feature's
// (delivery/queueDeliveries.ts).

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
