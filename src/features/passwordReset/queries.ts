import type { Db } from '../../db/client.ts';

/**
 * The member's reset link, replacing a pending one (its routing row goes too), with the new
 * token's routing row. One statement per table, all in the caller's transaction.
 */
export async function replacePasswordReset(
  sql: Db,
  row: { organizationId: string; userId: string; tokenHash: Buffer; lifetimeSeconds: number },
): Promise<void> {
  const old = await sql<{ tokenHash: Buffer }[]>`
    DELETE FROM password_resets WHERE organization_id = ${row.organizationId} AND user_id = ${row.userId}
    RETURNING token_hash AS "tokenHash"`;
  const hashes = old.map((reset) => reset.tokenHash);
  if (hashes.length > 0) await sql`DELETE FROM credentials WHERE hash IN ${sql(hashes)} AND kind = 'password_reset'`;
  await sql`INSERT INTO credentials (hash, kind, organization_id) VALUES (${row.tokenHash}, 'password_reset', ${row.organizationId})`;
  await sql`
    INSERT INTO password_resets (organization_id, user_id, token_hash, expires_at)
    VALUES (${row.organizationId}, ${row.userId}, ${row.tokenHash}, now() + make_interval(secs => ${row.lifetimeSeconds}))`;
}

/**
 * Uses the link up: deleted (with its routing row) whether or not it was still valid, so of two
 * confirms the second finds nothing; answers the member when it was valid.
 */
export async function consumePasswordReset(sql: Db, organizationId: string, tokenHash: Buffer): Promise<string | undefined> {
  // The expiry is compared here: a distributed engine refuses now() beside columns in RETURNING.
  const [row] = await sql<{ userId: string; expiresAt: Date }[]>`
    DELETE FROM password_resets
    WHERE organization_id = ${organizationId} AND token_hash = ${tokenHash}
    RETURNING user_id AS "userId", expires_at AS "expiresAt"`;
  await sql`DELETE FROM credentials WHERE hash = ${tokenHash} AND kind = 'password_reset'`;
  return row && row.expiresAt.getTime() > Date.now() ? row.userId : undefined;
}

export async function setPasswordHash(sql: Db, organizationId: string, userId: string, passwordHash: string): Promise<boolean> {
  const updated = await sql`UPDATE users SET password_hash = ${passwordHash} WHERE organization_id = ${organizationId} AND id = ${userId}`;
  return updated.count === 1;
}

/** Every session of the member, and their routing rows: each of their open dashboards is signed out. */
export async function endSessionsOfUser(sql: Db, organizationId: string, userId: string): Promise<void> {
  const ended = await sql<{ idHash: Buffer }[]>`
    DELETE FROM sessions WHERE organization_id = ${organizationId} AND user_id = ${userId} RETURNING id_hash AS "idHash"`;
  const hashes = ended.map((session) => session.idHash);
  if (hashes.length > 0) await sql`DELETE FROM credentials WHERE hash IN ${sql(hashes)} AND kind = 'session'`;
}

/** The member's password hash, for checking the current password before a change. */
export async function findPasswordHash(sql: Db, organizationId: string, userId: string): Promise<string | undefined> {
  const [row] = await sql<{ passwordHash: string }[]>`
    SELECT password_hash AS "passwordHash" FROM users WHERE organization_id = ${organizationId} AND id = ${userId}`;
  return row?.passwordHash;
}

/** Every session of the member but the one given, and their routing rows: other devices are signed out. */
export async function endOtherSessionsOfUser(sql: Db, organizationId: string, userId: string, keptIdHash: Buffer): Promise<void> {
  const ended = await sql<{ idHash: Buffer }[]>`
    DELETE FROM sessions WHERE organization_id = ${organizationId} AND user_id = ${userId} AND id_hash <> ${keptIdHash}
    RETURNING id_hash AS "idHash"`;
  const hashes = ended.map((session) => session.idHash);
  if (hashes.length > 0) await sql`DELETE FROM credentials WHERE hash IN ${sql(hashes)} AND kind = 'session'`;
}

/** The email of the member a still-valid reset link is for; nothing when it is unknown, expired or used. */
export async function findResetEmail(sql: Db, organizationId: string, tokenHash: Buffer): Promise<string | undefined> {
  const [row] = await sql<{ email: string; expiresAt: Date }[]>`
    SELECT u.email, r.expires_at AS "expiresAt"
    FROM password_resets r JOIN users u ON u.organization_id = r.organization_id AND u.id = r.user_id
    WHERE r.organization_id = ${organizationId} AND r.token_hash = ${tokenHash}`;
  return row && row.expiresAt.getTime() > Date.now() ? row.email : undefined;
}
