import type { Sql } from '../../db/client.ts';
import type { OidcAttempt } from './oidcClient.ts';
import { openValue, sealValue } from './sealed.ts';

export const ATTEMPT_COOKIE = 'eventlog_oidc';
/** How long a person may take at the issuer before the attempt is forgotten. */
export const ATTEMPT_LIFETIME_SECONDS = 600;

/**
 * The attempt (state, nonce, PKCE verifier) travels in a short-lived httpOnly cookie, sealed
 * (sealed.ts, decision 122): no table holds attempts that are never finished.
 */
export async function sealAttempt(sql: Sql, attempt: OidcAttempt, now = Date.now()): Promise<string> {
  return sealValue(sql, 'attempt', attempt, ATTEMPT_LIFETIME_SECONDS, now);
}

/** The attempt in the cookie, or null when it is missing, altered, expired or not ours. */
export async function openAttempt(sql: Sql, value: string | undefined, now = Date.now()): Promise<OidcAttempt | null> {
  const parsed = await openValue(sql, 'attempt', value, now);
  if (!parsed || typeof parsed.state !== 'string' || typeof parsed.nonce !== 'string' || typeof parsed.verifier !== 'string') return null;
  return { state: parsed.state, nonce: parsed.nonce, verifier: parsed.verifier };
}
