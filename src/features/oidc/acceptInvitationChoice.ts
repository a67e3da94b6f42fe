import type { InstallationCtx } from '../../context.ts';
import { NotFound, Unauthorized } from '../../lib/errors.ts';
import type { OpenedSession } from '../sessions/openSession.ts';
import { joinByInvitation } from './joinByInvitation.ts';
import { UNKNOWN_CHOICE } from './listInvitationChoices.ts';
import { findInvitationChoices } from './queries.ts';

/**
 * POST /api/oidc/choices/:invitationId/accept: the person accepts the one invitation they chose,
 * among the pending ones of the email in the sealed choice cookie; an id that is not one of those
 * is 404 like an unknown one. The others stay pending (decision 213).
 */
export async function acceptInvitationChoice({
  ctx,
  input,
}: {
  ctx: InstallationCtx;
  input: { email: string | null; invitationId: string };
}): Promise<OpenedSession> {
  if (!input.email) throw new Unauthorized(UNKNOWN_CHOICE);
  const choices = await findInvitationChoices(ctx.services.sql, input.email, 50);
  const chosen = choices.find((choice) => choice.id === input.invitationId);
  if (!chosen) throw new NotFound('Invitation');
  return joinByInvitation(ctx, input.email, chosen);
}
