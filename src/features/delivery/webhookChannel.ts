import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import { type PostResult, postOnce } from '../../lib/outboundHttp/postOnce.ts';
import { judgeAttempt } from './retryPolicy.ts';
import { signatureHeaders } from './signing.ts';
import type { ClaimedDelivery } from '../../ports.ts';
import { type DeliveryOutcome, autoDisableReason, settleAttempt } from './attemptLog.ts';
import { DELIVERY_MARKER_HEADER, DELIVERY_NOTE_HEADER, deliveryMarker } from './deliveryMarker.ts';
import { CHANNELS, isChannelFormat, serviceAnswer } from './channels/index.ts';
import { parseChannelMessage } from './channels/message.ts';

const USER_AGENT = 'Eventlog-Webhooks/1.0';

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
 * attempt recorded with its consequence (attemptLog.ts).
 */
export class WebhookChannel {
  constructor(private readonly deps: WebhookChannelDeps) {}

  /**
   * Sends one leased delivery and records the attempt. Answers with the outcome and, when the
   * delivery was rescheduled, the wait before its next attempt.
   */
  async send(delivery: ClaimedDelivery): Promise<{ outcome: DeliveryOutcome; retryInMs: number | null }> {
    const at = new Date();
    const sent: PostResult = delivery.enabled ? await this.post(delivery) : failure('Not sent: the destination was disabled');
    const channel = isChannelFormat(delivery.format);
    const result = channel ? withServiceAnswer(sent) : sent;
    const verdict = judgeAttempt(result, delivery.attempts + 1, delivery.maxAttempts, this.deps.retryDelaysMs, { honorRetryAfter: channel });
    return settleAttempt(this.deps, delivery, {
      at,
      status: result.status,
      error: result.error,
      response: result.response,
      note: headerText(result.headers?.[DELIVERY_NOTE_HEADER]),
      durationMs: result.durationMs,
      sent: delivery.enabled,
      verdict,
      disabledReason: autoDisableReason(channel ? lastAnswer(result) : result.status !== null ? `HTTP ${result.status}` : (result.error ?? 'no answer')),
    });
  }

  private async post(delivery: ClaimedDelivery): Promise<PostResult> {
    const marker = { 'user-agent': USER_AGENT, [DELIVERY_MARKER_HEADER]: await deliveryMarker(this.deps.sql, delivery.id) };
    if (isChannelFormat(delivery.format)) {
      // The service's own request, built from the URL as it is now (channels/).
      const request = CHANNELS[delivery.format].request(parseChannelMessage(delivery.body), new URL(delivery.url), delivery.id);
      return postOnce({ ...this.sendOptions(), method: request.method, url: request.url, body: request.body, headers: { ...request.headers, ...marker } });
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', ...marker };
    if (delivery.format === 'json') {
      if (!delivery.secret) return failure('The destination has no signing secret');
      // A fresh timestamp per attempt: receivers reject signatures older than 5 minutes.
      Object.assign(headers, signatureHeaders(delivery.secret, delivery.webhookId, Math.floor(Date.now() / 1000), delivery.body));
    }
    return postOnce({ ...this.sendOptions(), url: delivery.url, body: delivery.body, headers });
  }

  private sendOptions() {
    return { timeoutMs: this.deps.attemptTimeoutMs, allowPrivate: this.deps.allowPrivate, ca: this.deps.ca };
  }
}

/** An attempt that was never made; repeating it cannot help. */
function failure(error: string): PostResult {
  return { status: null, error, retryable: false, response: null, durationMs: 0, retryAfterMs: null };
}

/** A receiver's note header, kept short: it is the receiver's text, shown in the attempt log. */
function headerText(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, 300) : null;
}

/** A service's refusal in its own words: `The service answered HTTP 403: bot was blocked by the user`. */
function withServiceAnswer(result: PostResult): PostResult {
  if (result.status === null || (result.status >= 200 && result.status < 300)) return result;
  const said = serviceAnswer(result.response);
  const retryAfterMs = result.retryAfterMs ?? telegramRetryAfterMs(result.response);
  return { ...result, retryAfterMs, error: `The service answered HTTP ${result.status}${said ? `: ${said}` : ''}` };
}

/** Telegram names its wait in the body too: `{"parameters": {"retry_after": 5}}`. */
function telegramRetryAfterMs(response: string | null): number | null {
  try {
    const seconds = (JSON.parse(response ?? '') as { parameters?: { retry_after?: unknown } }).parameters?.retry_after;
    return typeof seconds === 'number' && seconds >= 0 ? seconds * 1000 : null;
  } catch {
    return null;
  }
}

/** The last answer, for a disabledReason: the status and what the service said, or the error. */
function lastAnswer(result: PostResult): string {
  if (result.status === null) return result.error ?? 'no answer';
  const said = serviceAnswer(result.response);
  return said ? `HTTP ${result.status}: ${said}` : `HTTP ${result.status}`;
}
