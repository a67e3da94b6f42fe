import type { Db } from '../../db/client.ts';

/** Deletes the member's pending reset link, if any; the token hashes it had. */
export async function deletePasswordResetsOfUser(sql: Db, organizationId: string, userId: string): Promise<Buffer[]> {
  const old = await sql<{ tokenHash: Buffer }[]>`
    DELETE FROM password_resets WHERE organization_id = ${organizationId} AND user_id = ${userId}
    RETURNING token_hash AS "tokenHash"`;
  return old.map((reset) => reset.tokenHash);
}

export async function insertPasswordReset(sql: Db, row: { organizationId: string; userId: string; tokenHash: Buffer; lifetimeSeconds: number }): Promise<void> {
  await sql`
    INSERT INTO password_resets (organization_id, user_id, token_hash, expires_at)
    VALUES (${row.organizationId}, ${row.userId}, ${row.tokenHash}, now() + make_interval(secs => ${row.lifetimeSeconds}))`;
}

/** Deletes the token's reset link, valid or not; its member while it was still valid. */
export async function deletePasswordReset(sql: Db, organizationId: string, tokenHash: Buffer): Promise<string | undefined> {
  // The expiry is compared here: a distributed engine refuses now() beside columns in RETURNING.
  const [row] = await sql<{ userId: string; expiresAt: Date }[]>`
    DELETE FROM password_resets
    WHERE organization_id = ${organizationId} AND token_hash = ${tokenHash}
    RETURNING user_id AS "userId", expires_at AS "expiresAt"`;
  return row && row.expiresAt.getTime() > Date.now() ? row.userId : undefined;
}

/** The member's password hash, for checking the current password before a change. */
export async function findPasswordHash(sql: Db, organizationId: string, userId: string): Promise<string | undefined> {
  const [row] = await sql<{ passwordHash: string }[]>`
    SELECT password_hash AS "passwordHash" FROM users WHERE organization_id = ${organizationId} AND id = ${userId}`;
  return row?.passwordHash;
}

/** The email of the member a still-valid reset link is for; nothing when it is unknown, expired or used. */
export async function findResetEmail(sql: Db, organizationId: string, tokenHash: Buffer): Promise<string | undefined> {
  const [row] = await sql<{ email: string; expiresAt: Date }[]>`
    SELECT u.email, r.expires_at AS "expiresAt"
    FROM password_resets r JOIN users u ON u.organization_id = r.organization_id AND u.id = r.user_id
    WHERE r.organization_id = ${organizationId} AND r.token_hash = ${tokenHash}`;
  return row && row.expiresAt.getTime() > Date.now() ? row.email : undefined;
}
