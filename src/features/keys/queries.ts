import type { Sql } from '../../db/client.ts';

export interface KeyRow {
  id: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export async function insertKey(
  sql: Sql,
  row: { id: string; organizationId: string; keyHash: Buffer; prefix: string },
): Promise<void> {
  await sql`
    INSERT INTO api_keys (id, organization_id, key_hash, prefix)
    VALUES (${row.id}, ${row.organizationId}, ${row.keyHash}, ${row.prefix})`;
}

export function listKeys(sql: Sql, organizationId: string): Promise<KeyRow[]> {
  return sql<KeyRow[]>`
    SELECT id, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
    FROM api_keys WHERE organization_id = ${organizationId}
    ORDER BY created_at DESC, id DESC`;
}

/** Revokes once; a second call returns the original revocation time. */
export async function revokeKey(
  sql: Sql,
  organizationId: string,
  keyId: string,
): Promise<{ id: string; revokedAt: Date } | undefined> {
  const [row] = await sql<{ id: string; revokedAt: Date }[]>`
    UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
    WHERE id = ${keyId} AND organization_id = ${organizationId}
    RETURNING id, revoked_at AS "revokedAt"`;
  return row;
}

/** Operator lookup for the command line, which names a key without its organization. */
export async function findKeyOrganization(sql: Sql, keyId: string): Promise<string | undefined> {
  const [row] = await sql<{ organizationId: string }[]>`
    SELECT organization_id AS "organizationId" FROM api_keys WHERE id = ${keyId}`;
  return row?.organizationId;
}

export async function findActiveKeyByHash(
  sql: Sql,
  keyHash: Buffer,
): Promise<{ id: string; organizationId: string } | undefined> {
  const [row] = await sql<{ id: string; organizationId: string }[]>`
    SELECT id, organization_id AS "organizationId"
    FROM api_keys WHERE key_hash = ${keyHash} AND revoked_at IS NULL`;
  return row;
}

export async function stampLastUsed(sql: Sql, keyIds: string[]): Promise<void> {
  await sql`UPDATE api_keys SET last_used_at = now() WHERE id = ANY(${keyIds}::text[])`;
}
