import type { PostResult } from '../../lib/outboundHttp/postOnce.ts';

/** Spec "Retries": the second attempt about 1 s after the first, the third about 5 s after that. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1000, 5000];
/** Each attempt, connect to response, is given this long. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export type Verdict = { kind: 'succeeded' } | { kind: 'retry'; delayMs: number } | { kind: 'failed' };

/**
 * What happens after attempt number `attempt` (1-based). A 2xx ends the delivery; a 4xx other than
 * 429 (and anything else that is not 429, 5xx or a network failure) is a definite rejection. A
 * Retry-After header may stretch the wait up to the schedule's longest gap, never beyond it.
 */
export function judgeAttempt(
  result: PostResult,
  attempt: number,
  maxAttempts: number,
  delaysMs: readonly number[],
  /** Channels (a service's rate limit): the next attempt waits at least what Retry-After asked. */
  options: { honorRetryAfter?: boolean } = {},
): Verdict {
  const { status } = result;
  if (status !== null && status >= 200 && status < 300) return { kind: 'succeeded' };
  const retryable = status === null ? result.retryable : status === 429 || status >= 500;
  if (!retryable || attempt >= maxAttempts || delaysMs.length === 0) return { kind: 'failed' };
  const scheduled = delaysMs[Math.min(attempt, delaysMs.length) - 1] as number;
  const longest = Math.max(...delaysMs);
  const asked = result.retryAfterMs;
  if (asked !== null && options.honorRetryAfter) return { kind: 'retry', delayMs: Math.max(asked, scheduled) };
  const delayMs = asked === null ? scheduled : Math.min(Math.max(asked, scheduled), longest);
  return { kind: 'retry', delayMs };
}

/**
 * The same schedule for an email (extensions.md, "Email"): the SMTP server accepted it (2xx) or
 * refused it for good (5xx); a 4xx or a refused, dropped or timed-out connection is retried.
 */
export function judgeMailAttempt(
  result: { status: number | null; retryable: boolean },
  attempt: number,
  maxAttempts: number,
  delaysMs: readonly number[],
): Verdict {
  const { status } = result;
  if (status !== null && status >= 200 && status < 400) return { kind: 'succeeded' };
  if (!result.retryable || attempt >= maxAttempts || delaysMs.length === 0) return { kind: 'failed' };
  return { kind: 'retry', delayMs: delaysMs[Math.min(attempt, delaysMs.length) - 1] as number };
}
