import type { Role } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { addCredential, deleteCredentials } from '../organizations/credentials.ts';
import {
  deleteInvitationById,
  deleteInvitationsOfEmail,
  deleteLiveInvitationByToken,
  lockInvitation,
  updateInvitationToken,
  upsertInvitation,
} from './queries.ts';

// An invitation's row and its token's routing row (organizations/credentials.ts) change together,
// in the caller's transaction: a token whose invitation is gone stops routing, so its link stops
// working. Single sign-on uses an invitation up through consumeInvitationById.

interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  expiresAt: Date;
}

/** The new invitation; the email's pending one, if any, goes first, so its link stops working. */
export async function replaceInvitation(
  tx: Db,
  row: { organizationId: string; id: string; email: string; role: Role; tokenHash: Buffer; invitedBy: string | null; lifetimeSeconds: number },
): Promise<InvitationRow> {
  await deleteCredentials(tx, 'invitation', await deleteInvitationsOfEmail(tx, row.organizationId, row.email));
  await addCredential(tx, 'invitation', row.tokenHash, row.organizationId);
  // A concurrent invitation of the same email may have been inserted since: this one wins.
  return upsertInvitation(tx, row);
}

/**
 * Uses the token's invitation up: deleted if it is live, so of two accepts the second waits for
 * the first and then finds nothing. An accept that fails afterwards rolls back and leaves the
 * token unused.
 */
export async function consumeInvitation(tx: Db, organizationId: string, tokenHash: Buffer): Promise<InvitationRow | undefined> {
  const row = await deleteLiveInvitationByToken(tx, organizationId, tokenHash);
  if (row) await deleteCredentials(tx, 'invitation', [tokenHash]);
  return row;
}

/** Uses a live invitation up by its id (single sign-on); false when it is gone or expired meanwhile. */
export async function consumeInvitationById(tx: Db, organizationId: string, invitationId: string): Promise<boolean> {
  const tokenHash = await deleteInvitationById(tx, organizationId, invitationId, { live: true });
  if (!tokenHash) return false;
  await deleteCredentials(tx, 'invitation', [tokenHash]);
  return true;
}

/** Deletes an invitation, expired or not; false when there is none. */
export async function deleteInvitation(tx: Db, organizationId: string, invitationId: string): Promise<boolean> {
  const tokenHash = await deleteInvitationById(tx, organizationId, invitationId, { live: false });
  if (!tokenHash) return false;
  await deleteCredentials(tx, 'invitation', [tokenHash]);
  return true;
}

/** A new token and lifetime for an invitation, keeping its id, email and role: the old link stops working. */
export async function renewInvitation(
  tx: Db,
  row: { organizationId: string; id: string; tokenHash: Buffer; lifetimeSeconds: number },
): Promise<InvitationRow | undefined> {
  const oldHash = await lockInvitation(tx, row.organizationId, row.id);
  if (!oldHash) return undefined;
  await deleteCredentials(tx, 'invitation', [oldHash]);
  await addCredential(tx, 'invitation', row.tokenHash, row.organizationId);
  return updateInvitationToken(tx, row);
}
