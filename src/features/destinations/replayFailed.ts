import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { queueFailedReplays } from '../delivery/queueDeliveries.ts';

/** Largest `since` accepted: 9999-12-31T23:59:59Z, as for an event's created_at. */
const MAX_SINCE = 253_402_300_799;

/**
 * After an outage: every event whose latest delivery to the destination since `since` failed is
 * delivered again, once, under its webhook-id and with its frozen body, signed with the current
 * secret when sent (see delivery/replayQueries.ts for the counting).
 */
export async function replayFailed({ ctx, input }: VerbArgs<{ destinationId: string; since: number }>): Promise<{ queued: number }> {
  if (!Number.isFinite(input.since) || input.since < 0 || input.since > MAX_SINCE) {
    throw new InvalidInput(`since must be Unix seconds from 0 to ${MAX_SINCE}`);
  }
  const { sql, deliveries } = ctx.services;
  const result = await queueFailedReplays(sql, {
    organizationId: ctx.organizationId,
    destinationId: input.destinationId,
    sinceSeconds: input.since,
    maxAttempts: deliveries.maxAttempts,
  });
  if (!result) throw new NotFound('Destination');
  if (!result.enabled) throw new InvalidInput('The destination is disabled; enable it to replay deliveries');
  if (result.queued > 0) deliveries.wake();
  return { queued: result.queued };
}
