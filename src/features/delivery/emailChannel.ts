import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import type { ClaimedDelivery, Mail, MailResult } from '../../ports.ts';
import { type DeliveryOutcome, autoDisableReason, settleAttempt } from './attemptLog.ts';
import type { EventEmail } from './emailMessage.ts';
import { judgeMailAttempt } from './retryPolicy.ts';

interface EmailChannelDeps {
  sql: Sql;
  bus: Bus;
  log: FastifyBaseLogger;
  mailer: Mail;
  retryDelaysMs: readonly number[];
  /** For the Message-ID's domain. */
  baseUrl: string;
}

/**
 * Email destinations (`mailto:` URLs, format "email"): one SMTP transaction per attempt through
 * the process's pooled transport, to the addresses the URL holds when the attempt is made. The
 * attempt's status is the SMTP reply code; a 4xx or a connection that failed is retried on the
 * webhooks' schedule, a 5xx is final. The attempt is recorded like a webhook's (attemptLog.ts),
 * so the log, automatic disabling, replay and Test work alike. The Message-ID is derived from the
 * delivery's webhook-id, the same on every attempt and replay, so a mail client can tell repeats.
 */
export class EmailChannel {
  private readonly domain: string;

  constructor(private readonly deps: EmailChannelDeps) {
    this.domain = new URL(deps.baseUrl).hostname || 'eventlog';
  }

  async send(delivery: ClaimedDelivery): Promise<{ outcome: DeliveryOutcome; retryInMs: number | null }> {
    const at = new Date();
    const result = delivery.enabled ? await this.mail(delivery) : notSent('Not sent: the destination was disabled');
    const verdict = judgeMailAttempt(result, delivery.attempts + 1, delivery.maxAttempts, this.deps.retryDelaysMs);
    return settleAttempt(this.deps, delivery, {
      at,
      status: result.status,
      error: result.error,
      response: result.response,
      durationMs: result.durationMs,
      sent: delivery.enabled,
      verdict,
      disabledReason: autoDisableReason(result.status !== null ? `SMTP ${result.status}` : (result.error ?? 'no answer')),
    });
  }

  private mail(delivery: ClaimedDelivery): Promise<MailResult> {
    const to = recipients(delivery.url);
    if (to.length === 0) return Promise.resolve(notSent('The destination has no mailto: addresses'));
    let message: EventEmail;
    try {
      message = JSON.parse(delivery.body) as EventEmail;
    } catch {
      return Promise.resolve(notSent('The delivery was not rendered as an email (its destination changed kind)'));
    }
    const messageId = `<${delivery.webhookId}@${this.domain}>`;
    return this.deps.mailer.send({ to, ...message, messageId, headers: { 'X-Eventlog-Event': String(delivery.eventId) } });
  }
}

/** The addresses of a saved mailto: URL (checked when it was saved). */
function recipients(url: string): string[] {
  const list = url.trim().replace(/^mailto:/i, '');
  try {
    return decodeURIComponent(list)
      .split(',')
      .map((address) => address.trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}

function notSent(error: string): MailResult {
  return { status: null, error, retryable: false, response: null, durationMs: 0 };
}
