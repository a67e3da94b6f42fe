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

interface InvitationChoice {
  id: string;
  organizationId: string;
  organizationName: string;
  role: Role;
  invitedByEmail: string | null;
  expiresAt: Date;
}

/**
 * The pending invitations for an email with what the person needs to choose among them (the
 * organization's name, who invited them), newest first. Like findPendingInvitations, not filtered
 * by one organization: it runs only for an email the issuer vouched for that has no account yet.
 */
export async function findInvitationChoices(sql: Db, email: string, limit: number): Promise<InvitationChoice[]> {
  return sql<InvitationChoice[]>`
    SELECT i.id, i.organization_id AS "organizationId", o.name AS "organizationName", i.role,
           u.email AS "invitedByEmail", i.expires_at AS "expiresAt"
    FROM invitations i
    JOIN organizations o ON o.id = i.organization_id
    LEFT JOIN users u ON u.organization_id = i.organization_id AND u.id = i.invited_by
    WHERE lower(i.email) = lower(${email}) AND i.expires_at > now()
    ORDER BY i.created_at DESC, i.id DESC LIMIT ${limit}`;
}
