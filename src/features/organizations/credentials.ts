import type { Db } from '../../db/client.ts';
import { type CredentialKind, deleteCredentialRoutes, findCredentialRoute, insertCredentialRoute } from './queries.ts';

// The `credentials` table routes a credential's SHA-256 to its organization
// (migrations/040_tenant_keys.sql). Only this feature writes it: the feature that owns a
// credential's tenant row (a key, a hook, a session, an invitation, a reset link) calls these in
// the transaction that writes that row.

/**
 * A credential arrives without its organization: its SHA-256 finds the organization here, and the
 * caller then reads the tenant table with both. The routing row alone proves nothing, since the
 * tenant row may be gone, revoked or paused; the tenant read decides.
 */
export function findCredentialOrganization(sql: Db, kind: CredentialKind, hash: Buffer): Promise<string | undefined> {
  return findCredentialRoute(sql, kind, hash);
}

/**
 * The routing row of a new credential, written in the transaction that writes its tenant row (or
 * before it, outside one: a routing row left behind routes to nothing).
 */
export function addCredential(sql: Db, kind: CredentialKind, hash: Buffer, organizationId: string): Promise<void> {
  return insertCredentialRoute(sql, kind, hash, organizationId);
}

/** Tidying after the tenant rows are gone: a row left behind routes to nothing and does no harm. */
export async function deleteCredentials(sql: Db, kind: CredentialKind, hashes: Buffer[]): Promise<void> {
  if (hashes.length === 0) return;
  await deleteCredentialRoutes(sql, kind, hashes);
}
