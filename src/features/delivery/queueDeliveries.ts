import type { Db } from '../../db/client.ts';
import type { NewDelivery } from './deliveryRecord.ts';
import { insertFailedReplays, insertLeasedDelivery, insertReplay } from './replayQueries.ts';

// What the destinations' management (destinations/) queues for the worker: replays and Tests.

/**
 * A new delivery of an old one's frozen body under the same webhook-id, due now, when the
 * destination is enabled. Undefined when the delivery is not one of this destination's in the
 * organization; `enabled` false (and nothing queued) when the destination is disabled.
 */
export function queueReplay(
  sql: Db,
  q: { organizationId: string; destinationId: string; deliveryId: string; newId: string; maxAttempts: number },
): Promise<{ id: string; enabled: boolean } | undefined> {
  return insertReplay(sql, q);
}

/**
 * Queues again, once, every event whose latest delivery to the destination since `sinceSeconds`
 * ended in failure (see insertFailedReplays). Undefined when the destination is not the organization's.
 */
export function queueFailedReplays(
  sql: Db,
  q: { organizationId: string; destinationId: string; sinceSeconds: number; maxAttempts: number },
): Promise<{ enabled: boolean; queued: number } | undefined> {
  return insertFailedReplays(sql, q);
}

/** A Test delivery, created already leased to the caller, who sends it at once; in the caller's transaction. */
export function queueLeasedTestDelivery(tx: Db, row: NewDelivery & { leaseToken: string; leaseMs: number }): Promise<void> {
  return insertLeasedDelivery(tx, row);
}
