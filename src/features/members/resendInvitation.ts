import { withTransaction } from '../../db/client.ts';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { INVITATION_LIFETIME_SECONDS, hashInvitationToken, newInvitationToken } from './invitationToken.ts';
import { type InvitationObject, sendInvitationLink } from './invitationLink.ts';
import { renewInvitation } from './invitationWrites.ts';

/**
 * POST /api/invitations/:invitationId/resend: a new link for the same invitation (same id, email
 * and role), valid 7 days from now; the old link stops working. Shown this once and mailed when
 * email is configured, as a new invitation is, and audited as one (member.invite).
 */
export async function resendInvitation({ ctx, input }: VerbArgs<{ invitationId: string }>): Promise<InvitationObject> {
  const token = newInvitationToken();
  const invitation = await withTransaction(ctx.services.sql, async (tx) => {
    const renewed = await renewInvitation(tx, {
      organizationId: ctx.organizationId,
      id: input.invitationId,
      tokenHash: hashInvitationToken(token),
      lifetimeSeconds: INVITATION_LIFETIME_SECONDS,
    });
    if (!renewed) throw new NotFound('Invitation');
    await recordAudit(tx, ctx, { action: 'member.invite', target: { type: 'invitation', id: renewed.id } });
    return renewed;
  });
  return sendInvitationLink(ctx, invitation, token);
}
