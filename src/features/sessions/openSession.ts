import type { Db } from '../../db/client.ts';
import { addCredential, deleteCredentials } from '../organizations/credentials.ts';
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

/** Stores a new session (its hash only) and its routing row for a user whose identity has been proven. */
export async function openSession(sql: Db, user: { id: string; email: string }, organization: { id: string; name: string }): Promise<OpenedSession> {
  // Their routing rows go after them (a row left behind by a failure there routes to nothing).
  await deleteCredentials(sql, 'session', await deleteDeadSessionsOfUser(sql, organization.id, user.id));
  const token = newSecretToken();
  const csrfToken = newSecretToken();
  const idHash = hashSessionToken(token);
  await addCredential(sql, 'session', idHash, organization.id);
  await insertSession(sql, {
    idHash,
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
