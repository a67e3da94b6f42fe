import type { Sql } from '../../db/client.ts';

export async function insertUser(
  sql: Sql,
  row: { id: string; organizationId: string; email: string; passwordHash: string },
): Promise<boolean> {
  const inserted = await sql`
    INSERT INTO users (id, organization_id, email, password_hash)
    VALUES (${row.id}, ${row.organizationId}, ${row.email}, ${row.passwordHash})
    ON CONFLICT DO NOTHING RETURNING id`;
  return inserted.length === 1;
}

export async function findUserByEmail(
  sql: Sql,
  email: string,
): Promise<{ id: string; organizationId: string; email: string; passwordHash: string } | undefined> {
  const [row] = await sql<{ id: string; organizationId: string; email: string; passwordHash: string }[]>`
    SELECT id, organization_id AS "organizationId", email, password_hash AS "passwordHash"
    FROM users WHERE lower(email) = lower(${email})`;
  return row;
}

/** First-run setup is offered only while this is false. */
export async function hasAnyUser(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`SELECT EXISTS (SELECT 1 FROM users) AS found`;
  return row?.found ?? false;
}
