import type { Sql } from '../../db/client.ts';

/** Idle expiry, enforced in every lookup: a session unused this long is dead. */
export const IDLE_LIMIT = '7 days';

export interface ActiveSession {
  userId: string;
  organizationId: string;
  csrfToken: string;
  /** Seconds since last_seen_at, so the caller decides whether to slide it. */
  idleSeconds: number;
}

export interface SessionProfile {
  userId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  csrfToken: string;
}

export async function insertSession(
  sql: Sql,
  row: { idHash: Buffer; userId: string; organizationId: string; csrfToken: string; lifetimeSeconds: number },
): Promise<void> {
  await sql`
    INSERT INTO sessions (id_hash, user_id, organization_id, csrf_token, expires_at)
    VALUES (${row.idHash}, ${row.userId}, ${row.organizationId}, ${row.csrfToken},
            now() + make_interval(secs => ${row.lifetimeSeconds}))`;
}

export async function findActiveSession(sql: Sql, idHash: Buffer): Promise<ActiveSession | undefined> {
  const [row] = await sql<ActiveSession[]>`
    SELECT user_id AS "userId", organization_id AS "organizationId", csrf_token AS "csrfToken",
           extract(epoch FROM now() - last_seen_at)::float8 AS "idleSeconds"
    FROM sessions
    WHERE id_hash = ${idHash} AND expires_at > now() AND last_seen_at > now() - ${IDLE_LIMIT}::interval`;
  return row;
}

export async function touchSession(sql: Sql, idHash: Buffer): Promise<void> {
  await sql`UPDATE sessions SET last_seen_at = now() WHERE id_hash = ${idHash}`;
}

/** The signed-in user and organization behind a live session of this organization. */
export async function findSessionProfile(
  sql: Sql,
  organizationId: string,
  idHash: Buffer,
): Promise<SessionProfile | undefined> {
  const [row] = await sql<SessionProfile[]>`
    SELECT u.id AS "userId", u.email, o.id AS "organizationId", o.name AS "organizationName",
           s.csrf_token AS "csrfToken"
    FROM sessions s
    JOIN users u ON u.id = s.user_id AND u.organization_id = s.organization_id
    JOIN organizations o ON o.id = s.organization_id
    WHERE s.id_hash = ${idHash} AND s.organization_id = ${organizationId}
      AND s.expires_at > now() AND s.last_seen_at > now() - ${IDLE_LIMIT}::interval`;
  return row;
}

export async function deleteSession(sql: Sql, idHash: Buffer): Promise<void> {
  await sql`DELETE FROM sessions WHERE id_hash = ${idHash}`;
}

/** Housekeeping at sign-in, so dead sessions do not pile up for a user. */
export async function deleteDeadSessionsOfUser(sql: Sql, userId: string): Promise<void> {
  await sql`
    DELETE FROM sessions
    WHERE user_id = ${userId} AND (expires_at <= now() OR last_seen_at <= now() - ${IDLE_LIMIT}::interval)`;
}
