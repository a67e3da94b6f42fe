import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import { type Sql, withTransaction } from '../../db/client.ts';
import type { ClaimedDelivery } from '../../ports.ts';
import type { Verdict } from './retryPolicy.ts';
import { recordDeliveryOutcome } from '../destinations/deliveryOutcome.ts';
import { recordAttempt } from './webhookQueries.ts';

/** The Test action's delivery carries this event id: no real event has it. */
export const TEST_EVENT_ID = 0;
/** Consecutive deliveries that ended in failure after which a destination is disabled (contract). */
const DISABLE_AFTER_FAILURES = 20;

/** What one attempt came to; the Test action answers with it. */
export interface DeliveryOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  verdict: Verdict;
}

/** One attempt of any channel (a POST, an SMTP transaction), as the attempt log keeps it. */
interface Attempt {
  at: Date;
  status: number | null;
  error: string | null;
  response: string | null;
  /** What the receiver said about the attempt beyond its status (an Eventlog hook's loop note). */
  note?: string | null;
  durationMs: number | null;
  /** False when nothing was sent: the destination was disabled when the delivery was claimed. */
  sent: boolean;
  verdict: Verdict;
  /** Saved as disabledReason when this attempt's delivery completes the run of failures. */
  disabledReason: string;
}

/**
 * Records an attempt of a destination's delivery, whatever its channel: the attempt log row, the
 * delivery's next state, and the destination's last status and run of failures (which disables
 * it after DISABLE_AFTER_FAILURES). Answers with the outcome and, when the delivery was
 * rescheduled, the wait before its next attempt.
 */
export async function settleAttempt(
  deps: { sql: Sql; bus: Bus; log: FastifyBaseLogger },
  delivery: ClaimedDelivery,
  attempt: Attempt,
): Promise<{ outcome: DeliveryOutcome; retryInMs: number | null }> {
  const { verdict } = attempt;
  const { recorded, disabled } = await recordAttemptAndOutcome(deps.sql, delivery, attempt);
  if (disabled) {
    deps.log.warn({ destination: disabled.destinationId }, 'delivery worker: destination disabled after consecutive failures');
    deps.bus.announce({ type: 'destination.updated', organizationId: delivery.organizationId, projectId: disabled.projectId, id: disabled.destinationId });
  }
  if (!recorded) deps.log.warn({ delivery: delivery.id }, 'delivery worker: lease lost before the attempt was recorded');
  const outcome = { ok: verdict.kind === 'succeeded', status: attempt.status, error: attempt.error, verdict };
  return { outcome, retryInMs: recorded && verdict.kind === 'retry' ? verdict.delayMs : null };
}

/**
 * The attempt log row and the delivery's next state, then, when the delivery ended and was really
 * sent, the destination's last status and run of failures (destinations/deliveryOutcome.ts), in
 * one transaction. Nothing is written when the lease was lost.
 */
function recordAttemptAndOutcome(
  sql: Sql,
  delivery: ClaimedDelivery,
  attempt: Attempt,
): Promise<{ recorded: boolean; disabled: { destinationId: string; projectId: string } | null }> {
  const { verdict } = attempt;
  const outcome = verdict.kind === 'retry' ? 'pending' : verdict.kind;
  return withTransaction(sql, async (tx) => {
    const destinationId = await recordAttempt(tx, {
      organizationId: delivery.organizationId,
      deliveryId: delivery.id,
      leaseToken: delivery.leaseToken,
      at: attempt.at,
      status: attempt.status,
      durationMs: attempt.sent ? attempt.durationMs : null,
      error: attempt.error,
      response: attempt.response,
      note: attempt.note ?? null,
      outcome,
      retryInMs: verdict.kind === 'retry' ? verdict.delayMs : 0,
    });
    if (destinationId === undefined) return { recorded: false, disabled: null };
    // A disabled destination's row should keep showing its last real send; a pending delivery has not ended.
    if (outcome === 'pending' || !attempt.sent) return { recorded: true, disabled: null };
    const switchedOff = await recordDeliveryOutcome(tx, {
      organizationId: delivery.organizationId,
      destinationId,
      at: attempt.at,
      status: attempt.status,
      error: attempt.error,
      succeeded: outcome === 'succeeded',
      failed: outcome === 'failed',
      counts: delivery.eventId !== TEST_EVENT_ID,
      disableAfter: DISABLE_AFTER_FAILURES,
      disabledReason: attempt.disabledReason,
    });
    return { recorded: true, disabled: switchedOff ? { destinationId, projectId: switchedOff.projectId } : null };
  });
}

/** The disabledReason of a destination switched off by its run of failures, with the last error. */
export function autoDisableReason(last: string): string {
  return `Disabled automatically after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries (last: ${last})`;
}
