import type { Role } from '../../context.ts';
import type { Db } from '../../db/client.ts';

export interface StoredAccount {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  passwordHash: string;
}

/**
 * The user and its sign-in email, in one statement. The email's row in user_emails (lower-cased)
 * keeps emails unique across the installation: when it is taken, neither row is written and
 * this returns false.
 */
export async function insertAccount(sql: Db, row: { id: string; organizationId: string; email: string; passwordHash: string; role: Role }): Promise<boolean> {
  const inserted = await sql`
    WITH claimed AS (
      INSERT INTO user_emails (email, organization_id, user_id)
      VALUES (lower(${row.email}), ${row.organizationId}, ${row.id})
      ON CONFLICT DO NOTHING
      RETURNING organization_id, user_id
    )
    INSERT INTO users (organization_id, id, email, password_hash, role)
    SELECT organization_id, user_id, ${row.email}, ${row.passwordHash}, ${row.role} FROM claimed
    RETURNING id`;
  return inserted.length === 1;
}

/** The email's routing row (any case), then the user within its organization. */
export async function selectAccountByEmail(sql: Db, email: string): Promise<StoredAccount | undefined> {
  const [route] = await sql<{ organizationId: string; userId: string }[]>`
    SELECT organization_id AS "organizationId", user_id AS "userId" FROM user_emails WHERE email = lower(${email})`;
  if (!route) return undefined;
  const [row] = await sql<StoredAccount[]>`
    SELECT id, organization_id AS "organizationId", email, role, password_hash AS "passwordHash"
    FROM users WHERE organization_id = ${route.organizationId} AND id = ${route.userId}`;
  return row;
}

/** First-run setup is offered only while this is false. Every user has its row in user_emails. */
export async function hasAnyAccount(sql: Db): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`SELECT EXISTS (SELECT 1 FROM user_emails) AS found`;
  return row?.found ?? false;
}

export interface AccountRow {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
}

export async function updateAccountRole(sql: Db, organizationId: string, userId: string, role: Role): Promise<AccountRow | undefined> {
  const [row] = await sql<AccountRow[]>`
    UPDATE users SET role = ${role} WHERE organization_id = ${organizationId} AND id = ${userId}
    RETURNING id, email, role, created_at AS "createdAt"`;
  return row;
}

export async function updatePasswordHash(sql: Db, organizationId: string, userId: string, passwordHash: string): Promise<boolean> {
  const updated = await sql`UPDATE users SET password_hash = ${passwordHash} WHERE organization_id = ${organizationId} AND id = ${userId}`;
  return updated.count === 1;
}

/** The user (its push subscriptions go by cascade) and its sign-in email's row; false when there is none. */
export async function deleteAccountRow(sql: Db, organizationId: string, userId: string): Promise<boolean> {
  const [deleted] = await sql<{ email: string }[]>`
    DELETE FROM users WHERE organization_id = ${organizationId} AND id = ${userId} RETURNING email`;
  if (!deleted) return false;
  await sql`DELETE FROM user_emails WHERE email = lower(${deleted.email}) AND user_id = ${userId}`;
  return true;
}
