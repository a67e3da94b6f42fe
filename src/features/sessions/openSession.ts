import type { Db } from '../../db/client.ts';
import { deleteDeadSessionsOfUser, insertSession } from './queries.ts';
import { SESSION_LIFETIME_SECONDS, hashSessionToken, newSecretToken } from './sessionToken.ts';

/** What a signed-in browser is told: the body of sign-in, setup and GET /api/session. */
export interface SessionInfo {
  user: { id: string; email: string };
  organization: { id: string; name: string };
  csrfToken: string;
}

/** A session just opened: the reply body, and the cookie that only the routes may set. */
export interface OpenedSession {
  info: SessionInfo;
  token: string;
}

/** Stores a new session (its hash only) for a user whose identity has been proven. */
export async function openSession(
  sql: Db,
  user: { id: string; email: string },
  organization: { id: string; name: string },
): Promise<OpenedSession> {
  await deleteDeadSessionsOfUser(sql, organization.id, user.id);
  const token = newSecretToken();
  const csrfToken = newSecretToken();
  await insertSession(sql, {
    idHash: hashSessionToken(token),
    userId: user.id,
    organizationId: organization.id,
    csrfToken,
    lifetimeSeconds: SESSION_LIFETIME_SECONDS,
  });
  return {
    info: { user: { id: user.id, email: user.email }, organization: { id: organization.id, name: organization.name }, csrfToken },
    token,
  };
}
