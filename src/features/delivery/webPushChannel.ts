import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import webPush from 'web-push';
import type { Sql } from '../../db/client.ts';
import { AddressRefused, guardedLookup, refuseIpLiteral } from '../../lib/outboundHttp/addressGuard.ts';
import type { PostResult } from '../../lib/outboundHttp/postOnce.ts';
import { countPush } from '../../metrics.ts';
import { type VapidKeys, vapidKeys, vapidSubject } from '../push/vapidKeys.ts';
import { forgetGoneSubscription } from '../push/goneSubscription.ts';
import { type ClaimedPushJob, deletePushJob, reschedulePushJob } from './pushJobQueries.ts';
import { judgeAttempt } from './retryPolicy.ts';

/** How long a push service may hold a push for an offline browser. */
const TTL_SECONDS = 24 * 60 * 60;

interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

interface PushOptions {
  vapid: VapidKeys & { subject: string };
  /** Carries the address guard (a guarded lookup) and any extra trusted certificate. */
  agent: https.Agent;
  allowPrivate: boolean;
  timeoutMs: number;
}

interface WebPushChannelDeps {
  sql: Sql;
  log: FastifyBaseLogger;
  baseUrl: string;
  allowPrivate: boolean;
  attemptTimeoutMs: number;
  retryDelaysMs: readonly number[];
  /** Extra certificate authority trusted for push services. */
  ca: string | Buffer | undefined;
}

/**
 * Browser subscriptions: one encrypted push per job, the same retry rules as a webhook, and a
 * subscription the push service calls gone (404, 410) deleted with its queued pushes.
 */
export class WebPushChannel {
  /** Carries the address guard (a guarded lookup) and any extra trusted certificate. */
  private readonly agent: https.Agent;

  constructor(private readonly deps: WebPushChannelDeps) {
    this.agent = new https.Agent({
      ...(deps.allowPrivate ? {} : { lookup: guardedLookup }),
      ...(deps.ca ? { ca: deps.ca } : {}),
    });
  }

  /** Sends one leased push job and settles it; answers with the wait before its retry, if any. */
  async send(job: ClaimedPushJob): Promise<number | null> {
    const { sql, log, retryDelaysMs } = this.deps;
    const keys = await vapidKeys(sql);
    const result = await sendPush(job, job.payload, {
      vapid: { ...keys, subject: vapidSubject(this.deps.baseUrl) },
      agent: this.agent,
      allowPrivate: this.deps.allowPrivate,
      timeoutMs: this.deps.attemptTimeoutMs,
    });
    if (result.status === 404 || result.status === 410) {
      countPush('gone');
      await forgetGoneSubscription(sql, job.organizationId, job.subscriptionId);
      return null;
    }
    const verdict = judgeAttempt(result, job.attempts + 1, job.maxAttempts, retryDelaysMs);
    if (verdict.kind === 'retry') {
      await reschedulePushJob(sql, job, verdict.delayMs);
      return verdict.delayMs;
    }
    countPush(verdict.kind === 'succeeded' ? 'sent' : 'failed');
    if (verdict.kind === 'failed') log.warn({ subscription: job.subscriptionId, status: result.status, reason: result.error }, 'web push failed');
    await deletePushJob(sql, job);
    return null;
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * One encrypted (aes128gcm) push to a browser's push service, described like a webhook attempt so
 * the same retry rules apply. The guard covers IP-literal endpoints here, since those never reach
 * the agent's lookup.
 */
async function sendPush(target: PushTarget, payload: string, options: PushOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, status: number | null, retryable: boolean): PostResult => ({
    status,
    error,
    retryable,
    response: null,
    durationMs: elapsed(),
    retryAfterMs: null,
  });
  let url: URL;
  try {
    url = new URL(target.endpoint);
  } catch {
    return failed('The subscription endpoint is not a valid URL', null, false);
  }
  if (!options.allowPrivate) {
    const refused = refuseIpLiteral(url);
    if (refused) return failed(refused.message, null, false);
  }
  try {
    const answer = await webPush.sendNotification({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
      vapidDetails: options.vapid,
      TTL: TTL_SECONDS,
      timeout: options.timeoutMs,
      agent: options.agent,
    });
    return { status: answer.statusCode, error: null, retryable: true, response: answer.body || null, durationMs: elapsed(), retryAfterMs: null };
  } catch (error) {
    if (error instanceof webPush.WebPushError) {
      const retryAfter = error.headers?.['retry-after'];
      // 404 and 410 mean the browser unsubscribed: the caller deletes the subscription.
      return {
        ...failed(`The push service answered HTTP ${error.statusCode}`, error.statusCode, true),
        response: error.body ? String(error.body).slice(0, 1024) : null,
        retryAfterMs: typeof retryAfter === 'string' && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : null,
      };
    }
    if (error instanceof AddressRefused) return failed(error.message, null, false);
    return failed(`Could not reach the push service: ${error instanceof Error ? error.message : String(error)}`, null, true);
  }
}
