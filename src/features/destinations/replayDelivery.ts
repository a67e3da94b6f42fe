import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { queueReplay } from '../delivery/queueDeliveries.ts';

/**
 * Queues the delivery again as a new entry of the attempt log: the same frozen body and the same
 * webhook-id (it is the same message, so a receiver that deduplicates on webhook-id still can),
 * a fresh set of attempts, signed with the destination's current secret when sent.
 */
export async function replayDelivery({ ctx, input }: VerbArgs<{ destinationId: string; deliveryId: string }>): Promise<{ ok: true }> {
  const { sql, deliveries } = ctx.services;
  const replay = await queueReplay(sql, {
    organizationId: ctx.organizationId,
    destinationId: input.destinationId,
    deliveryId: input.deliveryId,
    newId: newId(16),
    maxAttempts: deliveries.maxAttempts,
  });
  if (!replay) throw new NotFound('Delivery');
  if (!replay.enabled) throw new InvalidInput('The destination is disabled; enable it to replay deliveries');
  deliveries.wake();
  return { ok: true };
}
