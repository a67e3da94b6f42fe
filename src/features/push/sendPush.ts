import type https from 'node:https';
import webPush from 'web-push';
import { AddressRefused, refuseIpLiteral } from '../destinations/addressGuard.ts';
import type { PostResult } from '../destinations/postOnce.ts';
import type { VapidKeys } from './vapidKeys.ts';

/** How long a push service may hold a push for an offline browser. */
const TTL_SECONDS = 24 * 60 * 60;

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  vapid: VapidKeys & { subject: string };
  /** Carries the address guard (a guarded lookup) and any extra trusted certificate. */
  agent: https.Agent;
  allowPrivate: boolean;
  timeoutMs: number;
}

/**
 * One encrypted (aes128gcm) push to a browser's push service, described like a webhook attempt so
 * the same retry rules apply. The guard covers IP-literal endpoints here, since those never reach
 * the agent's lookup.
 */
export async function sendPush(target: PushTarget, payload: string, options: PushOptions): Promise<PostResult> {
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
