import type { InstallationCtx, Role } from '../../context.ts';
import { Unauthorized } from '../../lib/errors.ts';
import { findInvitationChoices } from './queries.ts';

export const UNKNOWN_CHOICE = 'This choice is unknown or has expired; sign in again';

interface InvitationChoiceObject {
  id: string;
  organization: { id: string; name: string };
  role: Role;
  invitedBy: string | null;
  expiresAt: string;
}

/**
 * GET /api/oidc/choices: the pending invitations of the email in the sealed choice cookie (null
 * when the cookie is missing, altered or expired: 401), for the person to pick one.
 */
export async function listInvitationChoices({
  ctx,
  input,
}: {
  ctx: InstallationCtx;
  input: { email: string | null };
}): Promise<{ email: string; invitations: InvitationChoiceObject[] }> {
  if (!input.email) throw new Unauthorized(UNKNOWN_CHOICE);
  const choices = await findInvitationChoices(ctx.services.sql, input.email, 50);
  return {
    email: input.email,
    invitations: choices.map((choice) => ({
      id: choice.id,
      organization: { id: choice.organizationId, name: choice.organizationName },
      role: choice.role,
      invitedBy: choice.invitedByEmail,
      expiresAt: choice.expiresAt.toISOString(),
    })),
  };
}
