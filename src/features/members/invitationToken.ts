import { hashSessionToken, isWellFormedToken, newSecretToken } from '../sessions/sessionToken.ts';

/** Seven days from the invitation (extensions.md). */
export const INVITATION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** The dashboard's accept page; the token is the URL's last path segment. */
export const ACCEPT_PATH = '/app/accept/';

export const UNUSABLE_INVITATION = 'This invitation link is unknown, expired or already used; ask an owner for a new one';

/** Same form as a session token (256 random bits, base64url); only its SHA-256 is stored. */
export const newInvitationToken = newSecretToken;
export const hashInvitationToken = hashSessionToken;
export const isWellFormedInvitationToken = isWellFormedToken;
