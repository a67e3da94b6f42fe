import type { Db } from '../../db/client.ts';
import { type EndedDelivery, updateDestinationOutcome } from './outcomeQueries.ts';

/**
 * What a delivery that ended does to its destination (delivery/attemptLog.ts, in the transaction
 * that records the attempt): its last status, and its run of consecutive failures, which switches
 * it off with a `disabledReason` at `disableAfter` (decision 110). Answers the destination's
 * project when this ending switched it off.
 */
export function recordDeliveryOutcome(tx: Db, ended: EndedDelivery): Promise<{ projectId: string } | undefined> {
  return updateDestinationOutcome(tx, ended);
}
