import type { VerbArgs } from '../../context.ts';
import { Unauthorized } from '../../lib/errors.ts';
import type { SessionInfo } from './openSession.ts';
import { findSessionProfile } from './queries.ts';
import { hashFromSessionId } from './sessionToken.ts';

const NOT_SIGNED_IN = 'Not signed in to the dashboard';

/** GET /api/session: who is signed in, and the CSRF token the dashboard must echo on writes. */
export async function describeSession({ ctx }: VerbArgs<void>): Promise<SessionInfo> {
  if (ctx.actor.kind !== 'user') throw new Unauthorized(NOT_SIGNED_IN);
  const profile = await findSessionProfile(ctx.services.sql, ctx.organizationId, hashFromSessionId(ctx.actor.sessionId));
  if (!profile) throw new Unauthorized(NOT_SIGNED_IN);
  return {
    user: { id: profile.userId, email: profile.email },
    organization: { id: profile.organizationId, name: profile.organizationName },
    csrfToken: profile.csrfToken,
  };
}
