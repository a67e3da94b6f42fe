import type { Role } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { findCredentialOrganization } from '../organizations/credentials.ts';

/** Idle expiry, enforced in every lookup: a session unused this long is dead. */
const IDLE_LIMIT = '7 days';

interface ActiveSession {
  userId: string;
  organizationId: string;
  csrfToken: string;
  /** The user's role now: a role change applies to open sessions at once. */
  role: Role;
  /** Seconds since last_seen_at, so the caller decides whether to slide it. */
  idleSeconds: number;
}

interface SessionProfile {
  userId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  csrfToken: string;
}

/** The session; its routing row (organizations/credentials.ts) is written beside it by the caller. */
export async function insertSession(
  sql: Db,
  row: { idHash: Buffer; userId: string; organizationId: string; csrfToken: string; lifetimeSeconds: number },
): Promise<void> {
  await sql`
    INSERT INTO sessions (organization_id, id_hash, user_id, csrf_token, expires_at)
    VALUES (${row.organizationId}, ${row.idHash}, ${row.userId}, ${row.csrfToken},
            now() + make_interval(secs => ${row.lifetimeSeconds}))`;
}

// ---- Session hash → organization ------------------------------------------------------------

const ROUTE_CACHE_LIMIT = 10_000;
const routeCaches = new WeakMap<Db, Map<string, string>>();

function routeCache(sql: Db): Map<string, string> {
  let cache = routeCaches.get(sql);
  if (!cache) routeCaches.set(sql, (cache = new Map<string, string>()));
  return cache;
}

/**
 * The organization a session cookie's hash belongs to. Sessions are looked up on every dashboard
 * request, so the routes of live sessions are kept in memory: a route never changes (the hash
 * is random and its organization fixed), and the session row, read next with both, still decides
 * whether the session is alive, so a route outliving its session (signed out in another process)
 * only finds nothing. Only routes whose session was found live are kept, so made-up cookies
 * cannot fill the cache.
 */
export async function findSessionOrganization(sql: Db, idHash: Buffer): Promise<string | undefined> {
  return routeCache(sql).get(idHash.toString('base64')) ?? findCredentialOrganization(sql, 'session', idHash);
}

function rememberRoute(sql: Db, idHash: Buffer, organizationId: string): void {
  const cache = routeCache(sql);
  if (cache.size >= ROUTE_CACHE_LIMIT) cache.clear();
  cache.set(idHash.toString('base64'), organizationId);
}

function forgetRoute(sql: Db, idHash: Buffer): void {
  routeCache(sql).delete(idHash.toString('base64'));
}

// ---- Lookups ------------------------------------------------------------------------------------

/** The live session with this hash in this organization. */
export async function findActiveSession(sql: Db, organizationId: string, idHash: Buffer): Promise<ActiveSession | undefined> {
  const [row] = await sql<ActiveSession[]>`
    SELECT s.user_id AS "userId", s.organization_id AS "organizationId", s.csrf_token AS "csrfToken", u.role,
           extract(epoch FROM now() - s.last_seen_at)::float8 AS "idleSeconds"
    FROM sessions s
    JOIN users u ON u.organization_id = s.organization_id AND u.id = s.user_id
    WHERE s.organization_id = ${organizationId} AND s.id_hash = ${idHash}
      AND s.expires_at > now() AND s.last_seen_at > now() - ${IDLE_LIMIT}::interval`;
  return row;
}

/**
 * The live session behind a cookie: its route (from memory when it has been seen live before),
 * then the session row. At most two round trips.
 */
export async function findActiveSessionByHash(sql: Db, idHash: Buffer): Promise<ActiveSession | undefined> {
  const organizationId = await findSessionOrganization(sql, idHash);
  if (organizationId === undefined) return undefined;
  const session = await findActiveSession(sql, organizationId, idHash);
  if (session) rememberRoute(sql, idHash, organizationId);
  else forgetRoute(sql, idHash);
  return session;
}

export async function touchSession(sql: Db, organizationId: string, idHash: Buffer): Promise<void> {
  await sql`UPDATE sessions SET last_seen_at = now() WHERE organization_id = ${organizationId} AND id_hash = ${idHash}`;
}

/** The signed-in user and organization behind a live session of this organization. */
export async function findSessionProfile(sql: Db, organizationId: string, idHash: Buffer): Promise<SessionProfile | undefined> {
  const [row] = await sql<SessionProfile[]>`
    SELECT u.id AS "userId", u.email, o.id AS "organizationId", o.name AS "organizationName",
           s.csrf_token AS "csrfToken"
    FROM sessions s
    JOIN users u ON u.organization_id = s.organization_id AND u.id = s.user_id
    JOIN organizations o ON o.id = s.organization_id
    WHERE s.organization_id = ${organizationId} AND s.id_hash = ${idHash}
      AND s.expires_at > now() AND s.last_seen_at > now() - ${IDLE_LIMIT}::interval`;
  return row;
}

// ---- Removal ------------------------------------------------------------------------------------
// Each answers the hashes it deleted, whose routing rows the caller deletes next.

/** The session, whether or not it was still live. */
export async function deleteSession(sql: Db, organizationId: string, idHash: Buffer): Promise<void> {
  forgetRoute(sql, idHash);
  await sql`DELETE FROM sessions WHERE organization_id = ${organizationId} AND id_hash = ${idHash}`;
}

/** Housekeeping at sign-in, so dead sessions do not pile up for a user. */
export async function deleteDeadSessionsOfUser(sql: Db, organizationId: string, userId: string): Promise<Buffer[]> {
  const dead = await sql<{ idHash: Buffer }[]>`
    DELETE FROM sessions
    WHERE organization_id = ${organizationId} AND user_id = ${userId}
      AND (expires_at <= now() OR last_seen_at <= now() - ${IDLE_LIMIT}::interval)
    RETURNING id_hash AS "idHash"`;
  for (const { idHash } of dead) forgetRoute(sql, idHash);
  return dead.map((row) => row.idHash);
}

/** Every session of the user, or every one but `keptIdHash`. */
export async function deleteSessionsOfUser(sql: Db, organizationId: string, userId: string, keptIdHash?: Buffer): Promise<Buffer[]> {
  const ended = await sql<{ idHash: Buffer }[]>`
    DELETE FROM sessions WHERE organization_id = ${organizationId} AND user_id = ${userId}
      ${keptIdHash === undefined ? sql`` : sql`AND id_hash <> ${keptIdHash}`}
    RETURNING id_hash AS "idHash"`;
  return ended.map((row) => row.idHash);
}

// ---- First-run setup ------------------------------------------------------------------------------

/** Any constant: it names the advisory lock that lets only one first-run setup proceed. */
const SETUP_LOCK = 7_427_020;

/** Holds the first-run setup's advisory lock until the transaction ends: a second setup waits here. */
export async function lockFirstRunSetup(tx: Db): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
}
