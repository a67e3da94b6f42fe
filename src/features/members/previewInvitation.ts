import type { InstallationCtx, Role } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { findCredentialOrganization } from '../organizations/credentials.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { UNUSABLE_INVITATION, hashInvitationToken, isWellFormedInvitationToken } from './invitationToken.ts';
import { findLiveInvitation } from './queries.ts';

interface InvitationPreview {
  organization: string;
  email: string;
  role: Role;
  expiresAt: string;
}

/**
 * POST /api/invitations/preview (no credential: the token is one): what the accept page shows
 * before anyone chooses a password, the organization's name, the invited email and role. It
 * reads only; an unknown, expired or used token is refused as the accept refuses it.
 */
export async function previewInvitation({ ctx, input }: { ctx: InstallationCtx; input: { token: string } }): Promise<InvitationPreview> {
  const { sql } = ctx.services;
  if (!isWellFormedInvitationToken(input.token)) throw new InvalidInput(UNUSABLE_INVITATION);
  const tokenHash = hashInvitationToken(input.token);
  const organizationId = await findCredentialOrganization(sql, 'invitation', tokenHash);
  if (organizationId === undefined) throw new InvalidInput(UNUSABLE_INVITATION);
  const invitation = await findLiveInvitation(sql, organizationId, tokenHash);
  const organization = invitation && (await lookUpOrganization(sql, organizationId));
  if (!invitation || !organization) throw new InvalidInput(UNUSABLE_INVITATION);
  return { organization: organization.name, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() };
}
