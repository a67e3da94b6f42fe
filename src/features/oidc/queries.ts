import type { Db } from '../../db/client.ts';
import type { Role } from '../../context.ts';

interface PendingInvitation {
  organizationId: string;
  id: string;
  role: Role;
}

/**
 * The pending invitations for an email, in any organization, newest first (at most `limit`). The
 * one statement of sign-in that is not filtered by an organization (the person has no account yet
 * to route by): it reads the invitations_by_email index and runs only when an email with no
 * account signs in.
 */
export async function findPendingInvitations(sql: Db, email: string, limit: number): Promise<PendingInvitation[]> {
  return sql<PendingInvitation[]>`
    SELECT organization_id AS "organizationId", id, role FROM invitations
    WHERE lower(email) = lower(${email}) AND expires_at > now()
    ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
}

/** Uses the invitation up (and its token's routing row); false when it is gone or expired meanwhile. */
export async function consumeInvitationById(sql: Db, organizationId: string, invitationId: string): Promise<boolean> {
  const [row] = await sql<{ tokenHash: Buffer }[]>`
    DELETE FROM invitations WHERE organization_id = ${organizationId} AND id = ${invitationId} AND expires_at > now()
    RETURNING token_hash AS "tokenHash"`;
  if (!row) return false;
  await sql`DELETE FROM credentials WHERE hash = ${row.tokenHash} AND kind = 'invitation'`;
  return true;
}
