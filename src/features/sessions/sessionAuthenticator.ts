import type { Services } from '../../context.ts';
import type { SessionAuthenticator } from '../../http/auth.ts';
import { Forbidden, Unauthorized } from '../../lib/errors.ts';
import { readSessionToken } from './cookie.ts';
import { findActiveSessionByHash, touchSession } from './queries.ts';
import { SLIDE_INTERVAL_SECONDS, hashSessionToken, sameSecret, sessionIdFromHash } from './sessionToken.ts';
import { CSRF_HEADER, CSRF_REFUSED } from './signOut.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the session cookie of a request that sent no Authorization header. A write must also
 * carry the session's CSRF token in x-csrf-token: the cookie alone travels with any request the
 * browser makes, including ones another site triggers.
 */
export function createSessionAuthenticator(services: Services): SessionAuthenticator {
  return async (request) => {
    const token = readSessionToken(request);
    if (!token) return null;
    const idHash = hashSessionToken(token);
    const session = await findActiveSessionByHash(services.sql, idHash);
    if (!session) throw new Unauthorized('Your dashboard session has ended; sign in again');

    if (!SAFE_METHODS.has(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || !sameSecret(sent, session.csrfToken)) throw new Forbidden(CSRF_REFUSED);
    }
    if (session.idleSeconds >= SLIDE_INTERVAL_SECONDS) await touchSession(services.sql, session.organizationId, idHash);
    return {
      organizationId: session.organizationId,
      actor: { kind: 'user', userId: session.userId, sessionId: sessionIdFromHash(idHash), role: session.role },
    };
  };
}
