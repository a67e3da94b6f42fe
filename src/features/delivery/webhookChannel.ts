import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import { type PostResult, postOnce } from '../../lib/outboundHttp/postOnce.ts';
import { type Verdict, judgeAttempt } from './retryPolicy.ts';
import { signatureHeaders } from './signing.ts';
import type { ClaimedDelivery } from '../../ports.ts';
import { recordAttempt } from './webhookQueries.ts';

/** The Test action's delivery carries this event id: no real event has it. */
export const TEST_EVENT_ID = 0;
/** Consecutive deliveries that ended in failure after which a destination is disabled (contract). */
const DISABLE_AFTER_FAILURES = 20;
const USER_AGENT = 'Eventlog-Webhooks/1.0';

/** What one attempt came to; the Test action answers with it. */
export interface DeliveryOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  verdict: Verdict;
}

interface WebhookChannelDeps {
  sql: Sql;
  bus: Bus;
  log: FastifyBaseLogger;
  allowPrivate: boolean;
  attemptTimeoutMs: number;
  retryDelaysMs: readonly number[];
  /** Extra certificate authority trusted for https receivers. */
  ca: string | Buffer | undefined;
}

/**
 * Webhook destinations: one signed (or plain) POST per attempt through the SSRF-safe client, the
 * attempt recorded with its consequence, and a destination switched off by its run of failures.
 */
export class WebhookChannel {
  constructor(private readonly deps: WebhookChannelDeps) {}

  /**
   * Sends one leased delivery and records the attempt. Answers with the outcome and, when the
   * delivery was rescheduled, the wait before its next attempt.
   */
  async send(delivery: ClaimedDelivery): Promise<{ outcome: DeliveryOutcome; retryInMs: number | null }> {
    const { sql, bus, log, retryDelaysMs } = this.deps;
    const at = new Date();
    const result: PostResult = delivery.enabled ? await this.post(delivery) : failure('Not sent: the destination was disabled');
    const verdict = judgeAttempt(result, delivery.attempts + 1, delivery.maxAttempts, retryDelaysMs);
    const { recorded, disabled } = await recordAttempt(sql, {
      organizationId: delivery.organizationId,
      deliveryId: delivery.id,
      leaseToken: delivery.leaseToken,
      at,
      status: result.status,
      durationMs: delivery.enabled ? result.durationMs : null,
      error: result.error,
      response: result.response,
      outcome: verdict.kind === 'retry' ? 'pending' : verdict.kind,
      retryInMs: verdict.kind === 'retry' ? verdict.delayMs : 0,
      // A disabled destination's row should keep showing its last real send.
      sent: delivery.enabled,
      isTest: delivery.eventId === TEST_EVENT_ID,
      disableAfter: DISABLE_AFTER_FAILURES,
      disabledReason: autoDisableReason(result),
    });
    if (disabled) {
      log.warn({ destination: disabled.destinationId }, 'delivery worker: destination disabled after consecutive failures');
      bus.announce({ type: 'destination.updated', organizationId: delivery.organizationId, projectId: disabled.projectId, id: disabled.destinationId });
    }
    if (!recorded) log.warn({ delivery: delivery.id }, 'delivery worker: lease lost before the attempt was recorded');
    const outcome = { ok: verdict.kind === 'succeeded', status: result.status, error: result.error, verdict };
    return { outcome, retryInMs: recorded && verdict.kind === 'retry' ? verdict.delayMs : null };
  }

  private post(delivery: ClaimedDelivery): Promise<PostResult> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
    if (delivery.format === 'json') {
      if (!delivery.secret) return Promise.resolve(failure('The destination has no signing secret'));
      // A fresh timestamp per attempt: receivers reject signatures older than 5 minutes.
      Object.assign(headers, signatureHeaders(delivery.secret, delivery.webhookId, Math.floor(Date.now() / 1000), delivery.body));
    }
    return postOnce({
      url: delivery.url,
      body: delivery.body,
      headers,
      timeoutMs: this.deps.attemptTimeoutMs,
      allowPrivate: this.deps.allowPrivate,
      ca: this.deps.ca,
    });
  }
}

/** An attempt that was never made; repeating it cannot help. */
function failure(error: string): PostResult {
  return { status: null, error, retryable: false, response: null, durationMs: 0, retryAfterMs: null };
}

/** The disabledReason of a destination switched off by its run of failures, with the last error. */
function autoDisableReason(last: PostResult): string {
  const why = last.status !== null ? `HTTP ${last.status}` : (last.error ?? 'no answer');
  return `Disabled automatically after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries (last: ${why})`;
}
