import crypto from 'node:crypto';
import type { Sql } from '../../db/client.ts';
import { installationSecret } from '../../db/settings.ts';
import type { OidcAttempt } from './oidcClient.ts';

export const ATTEMPT_COOKIE = 'eventlog_oidc';
/** How long a person may take at the issuer before the attempt is forgotten. */
export const ATTEMPT_LIFETIME_SECONDS = 600;

const cookieKey = (sql: Sql) =>
  installationSecret(sql, 'oidc_cookie_key', () => crypto.randomBytes(32).toString('base64'), (value) => Buffer.from(value, 'base64'));

/**
 * The attempt (state, nonce, PKCE verifier) travels in a short-lived httpOnly cookie, sealed with
 * AES-256-GCM under an installation secret (decision 122): the browser can neither read nor
 * change it, any server process can open it, and no table holds attempts that are never finished.
 */
export async function sealAttempt(sql: Sql, attempt: OidcAttempt, now = Date.now()): Promise<string> {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', await cookieKey(sql), iv);
  const plain = JSON.stringify({ ...attempt, expires: now + ATTEMPT_LIFETIME_SECONDS * 1000 });
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** The attempt in the cookie, or null when it is missing, altered, expired or not ours. */
export async function openAttempt(sql: Sql, value: string | undefined, now = Date.now()): Promise<OidcAttempt | null> {
  const parts = value?.split('.') ?? [];
  if (parts.length !== 3) return null;
  try {
    const [iv, tag, sealed] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
    const decipher = crypto.createDecipheriv('aes-256-gcm', await cookieKey(sql), iv);
    decipher.setAuthTag(tag);
    const parsed = JSON.parse(Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8')) as OidcAttempt & { expires: number };
    if (!(parsed.expires > now)) return null;
    return { state: parsed.state, nonce: parsed.nonce, verifier: parsed.verifier };
  } catch {
    return null;
  }
}
