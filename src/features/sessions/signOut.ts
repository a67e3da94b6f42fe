import type { InstallationCtx } from '../../context.ts';
import { Forbidden } from '../../lib/errors.ts';
import { deleteCredentials } from '../organizations/credentials.ts';
import { deleteSession, findActiveSession, findSessionOrganization } from './queries.ts';
import { hashSessionToken, sameSecret } from './sessionToken.ts';

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_REFUSED = `Missing or wrong ${CSRF_HEADER} header; reload the dashboard and try again`;

/**
 * Ends the session named by the cookie. A live session must prove the request came from the
 * dashboard (CSRF token), so another site cannot sign the user out; a dead or missing one has
 * nothing left to protect and the call simply succeeds.
 */
export async function signOut({ ctx, input }: { ctx: InstallationCtx; input: { token: string | undefined; csrfToken: string | undefined } }): Promise<void> {
  const { services } = ctx;
  if (!input.token) return;
  const idHash = hashSessionToken(input.token);
  const organizationId = await findSessionOrganization(services.sql, idHash);
  if (organizationId === undefined) return;
  const session = await findActiveSession(services.sql, organizationId, idHash);
  if (session && !(input.csrfToken && sameSecret(input.csrfToken, session.csrfToken))) throw new Forbidden(CSRF_REFUSED);
  // The routing row after the session: one left behind by a failure between routes to nothing.
  await deleteSession(services.sql, organizationId, idHash);
  await deleteCredentials(services.sql, 'session', [idHash]);
}
