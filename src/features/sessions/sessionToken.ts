import crypto from 'node:crypto';
import { sha256 } from '../../lib/ids.ts';

export const SESSION_COOKIE = 'eventlog_session';

/** Absolute lifetime from sign-in; idle expiry is IDLE_LIMIT in queries.ts. */
export const SESSION_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/** last_seen_at moves at most this often, so a busy dashboard does not write on every request. */
export const SLIDE_INTERVAL_SECONDS = 60;

/** 256 random bits, base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSecretToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function isWellFormedToken(value: string | undefined): value is string {
  return value !== undefined && TOKEN_PATTERN.test(value);
}

/** Only this reaches the database; the token itself lives in the browser's cookie alone. */
export function hashSessionToken(token: string): Buffer {
  return sha256(token);
}

/** The session id an actor carries: the hash in hex, which cannot be turned back into a cookie. */
export const sessionIdFromHash = (idHash: Buffer): string => idHash.toString('hex');
export const hashFromSessionId = (sessionId: string): Buffer => Buffer.from(sessionId, 'hex');

export function sameSecret(a: string, b: string): boolean {
  const left = sha256(a);
  const right = sha256(b);
  return crypto.timingSafeEqual(left, right);
}
