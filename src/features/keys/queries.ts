import type { Db, Sql } from '../../db/client.ts';
import type { KeyAccess } from '../../ports.ts';
import { findCredentialOrganization } from '../organizations/credentials.ts';

/** What a key may do and see (extensions.md, "Scoped API keys"). */
interface KeyScope {
  access: KeyAccess;
  projects: readonly string[] | null;
  origins: readonly string[] | null;
}

interface KeyRow {
  id: string;
  name: string | null;
  prefix: string;
  access: KeyAccess;
  projects: string[] | null;
  origins: string[] | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The key; its routing row (organizations/credentials.ts) is written beside it, in the caller's transaction. */
export async function insertKey(
  sql: Db,
  row: { id: string; organizationId: string; keyHash: Buffer; prefix: string; name: string | null } & KeyScope,
): Promise<void> {
  await sql`
    INSERT INTO api_keys (organization_id, id, key_hash, prefix, name, access, projects, origins)
    VALUES (${row.organizationId}, ${row.id}, ${row.keyHash}, ${row.prefix}, ${row.name}, ${row.access},
      ${row.projects ? sql.array([...row.projects]) : null}::text[], ${row.origins ? sql.array([...row.origins]) : null}::text[])`;
}

export function listKeys(sql: Sql, organizationId: string): Promise<KeyRow[]> {
  return sql<KeyRow[]>`
    SELECT id, name, prefix, access, projects, origins, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
    FROM api_keys WHERE organization_id = ${organizationId}
    ORDER BY created_at DESC, id DESC`;
}

/**
 * Revokes once; a second call returns the original revocation time. The update only touches a
 * live key, and the read that follows a miss runs in a snapshot of its own, so it also sees a
 * revocation that a concurrent call committed meanwhile. The key's credentials row stays: it
 * routes to a row that still exists, and the lookup finds that row revoked.
 */
export async function revokeKey(sql: Db, organizationId: string, keyId: string): Promise<{ id: string; revokedAt: Date; now?: true } | undefined> {
  const [revoked] = await sql<{ id: string; revokedAt: Date }[]>`
    UPDATE api_keys SET revoked_at = now()
    WHERE organization_id = ${organizationId} AND id = ${keyId} AND revoked_at IS NULL
    RETURNING id, revoked_at AS "revokedAt"`;
  if (revoked) return { ...revoked, now: true };
  const [earlier] = await sql<{ id: string; revokedAt: Date }[]>`
    SELECT id, revoked_at AS "revokedAt"
    FROM api_keys WHERE organization_id = ${organizationId} AND id = ${keyId} AND revoked_at IS NOT NULL`;
  return earlier;
}

/**
 * Operator lookup for the command line, which names a key without its organization: a scan of
 * every organization's keys by id, acceptable for a rare command run by hand.
 */
export async function findKeyOrganization(sql: Sql, keyId: string): Promise<string | undefined> {
  const [row] = await sql<{ organizationId: string }[]>`
    SELECT organization_id AS "organizationId" FROM api_keys WHERE id = ${keyId}`;
  return row?.organizationId;
}

/** Routing row, then the key itself: two round trips, each to one organization's rows. */
export async function findActiveKeyByHash(sql: Sql, keyHash: Buffer): Promise<({ id: string; organizationId: string } & KeyScope) | undefined> {
  const organizationId = await findCredentialOrganization(sql, 'api_key', keyHash);
  if (organizationId === undefined) return undefined;
  const [row] = await sql<({ id: string; organizationId: string } & KeyScope)[]>`
    SELECT id, organization_id AS "organizationId", access, projects, origins
    FROM api_keys WHERE organization_id = ${organizationId} AND key_hash = ${keyHash} AND revoked_at IS NULL`;
  return row;
}

export async function stampLastUsed(sql: Sql, organizationId: string, keyId: string): Promise<void> {
  await sql`UPDATE api_keys SET last_used_at = now() WHERE organization_id = ${organizationId} AND id = ${keyId}`;
}

/**
 * Counts `events` events of a browser key from `address` in the minute that starts at
 * `windowStart` (1 for one event, a batch's items), unless the count would pass `limit`: the new
 * count, or null when they do not fit (nothing counted). One statement on one organization's row,
 * so every process sharing the database keeps one count. The caller never asks for more than `limit`.
 */
export async function countBrowserEvent(
  sql: Sql,
  row: { organizationId: string; address: string; windowStart: Date; limit: number; events: number },
): Promise<number | null> {
  const [counted] = await sql<{ count: number }[]>`
    INSERT INTO browser_event_counts AS c (organization_id, address, window_start, count)
    VALUES (${row.organizationId}, ${row.address}, ${row.windowStart}, ${row.events})
    ON CONFLICT (organization_id, address, window_start) DO UPDATE SET count = c.count + excluded.count
    WHERE c.count + excluded.count <= ${row.limit}
    RETURNING c.count`;
  return counted?.count ?? null;
}

/** Deletes the windows of browser keys' event counts that started before `before`, of every organization. */
export async function deleteBrowserCountsBefore(sql: Sql, before: Date): Promise<void> {
  await sql`DELETE FROM browser_event_counts WHERE window_start < ${before}`;
}
