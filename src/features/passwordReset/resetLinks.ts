import type { Db } from '../../db/client.ts';
import { addCredential, deleteCredentials } from '../organizations/credentials.ts';
import { deletePasswordReset, deletePasswordResetsOfUser, insertPasswordReset } from './queries.ts';

// A reset link's row and its token's routing row (organizations/credentials.ts) change together,
// in the caller's transaction.

/** The member's reset link, replacing a pending one (whose link then stops working). */
export async function replacePasswordReset(tx: Db, row: { organizationId: string; userId: string; tokenHash: Buffer; lifetimeSeconds: number }): Promise<void> {
  await deleteCredentials(tx, 'password_reset', await deletePasswordResetsOfUser(tx, row.organizationId, row.userId));
  await addCredential(tx, 'password_reset', row.tokenHash, row.organizationId);
  await insertPasswordReset(tx, row);
}

/**
 * Uses the link up: deleted (with its routing row) whether or not it was still valid, so of two
 * confirms the second finds nothing; answers the member when it was valid.
 */
export async function consumePasswordReset(tx: Db, organizationId: string, tokenHash: Buffer): Promise<string | undefined> {
  const member = await deletePasswordReset(tx, organizationId, tokenHash);
  await deleteCredentials(tx, 'password_reset', [tokenHash]);
  return member;
}
