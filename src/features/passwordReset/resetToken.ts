import { hashSessionToken, isWellFormedToken, newSecretToken } from '../sessions/sessionToken.ts';

/** One hour from the request (extensions.md, "Email"). */
export const RESET_LIFETIME_SECONDS = 60 * 60;

/** The dashboard's reset page; the token is the URL's last path segment. */
export const RESET_PATH = '/app/reset/';

export const UNUSABLE_RESET = 'This password reset link is unknown, expired or already used; ask for a new one';

/** Same form as a session token (256 random bits, base64url); only its SHA-256 is stored. */
export const newResetToken = newSecretToken;
export const hashResetToken = hashSessionToken;
export const isWellFormedResetToken = isWellFormedToken;
