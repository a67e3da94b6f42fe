import type { Db } from '../../db/client.ts';

/** What a row of `credentials` routes: a bearer key, a hook URL token, a session cookie or an invitation token. */
type CredentialKind = 'api_key' | 'hook' | 'session' | 'invitation' | 'password_reset';

/**
 * A credential arrives without its organization: its SHA-256 finds the organization here, and the
 * caller then reads the tenant table with both (migrations/040_tenant_keys.sql). The routing row
 * alone proves nothing, since the tenant row may be gone, revoked or paused; the tenant read decides.
 * The rows themselves are written by each credential's own insert, in the same statement.
 */
export async function findCredentialOrganization(sql: Db, kind: CredentialKind, hash: Buffer): Promise<string | undefined> {
  const [row] = await sql<{ organizationId: string }[]>`
    SELECT organization_id AS "organizationId" FROM credentials WHERE hash = ${hash} AND kind = ${kind}`;
  return row?.organizationId;
}

/** Tidying after the tenant rows are gone: a row left behind routes to nothing and does no harm. */
export async function deleteCredentials(sql: Db, kind: CredentialKind, hashes: Buffer[]): Promise<void> {
  if (hashes.length === 0) return;
  await sql`DELETE FROM credentials WHERE hash IN ${sql(hashes)} AND kind = ${kind}`;
}
