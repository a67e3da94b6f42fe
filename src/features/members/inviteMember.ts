import { withTransaction } from '../../db/client.ts';
import type { Role, VerbArgs } from '../../context.ts';
import { Conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { validEmail } from '../accounts/createAccount.ts';
import { INVITATION_LIFETIME_SECONDS, hashInvitationToken, newInvitationToken } from './invitationToken.ts';
import { type InvitationObject, sendInvitationLink } from './invitationLink.ts';
import { replaceInvitation } from './invitationWrites.ts';
import { isMemberEmail } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';

/**
 * POST /api/invitations: a link that lets one person join with a role. An email that has an
 * account in another organization is invited like any other, so the inviter learns nothing about
 * other organizations; the accept answers 409 then. The link is shown this once, and mailed to
 * the address when email is configured (after the commit: a mail that fails leaves the link valid).
 */
export async function inviteMember({ ctx, input }: VerbArgs<{ email: string; role: Role }>): Promise<InvitationObject> {
  const email = validEmail(input.email);
  const token = newInvitationToken();
  const invitation = await withTransaction(ctx.services.sql, async (tx) => {
    if (await isMemberEmail(tx, ctx.organizationId, email)) throw new Conflict('This email is already a member of this organization');
    const invited = await replaceInvitation(tx, {
      organizationId: ctx.organizationId,
      id: newId(16),
      email,
      role: input.role,
      tokenHash: hashInvitationToken(token),
      invitedBy: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
      lifetimeSeconds: INVITATION_LIFETIME_SECONDS,
    });
    await recordAudit(tx, ctx, { action: 'member.invite', target: { type: 'invitation', id: invited.id } });
    return invited;
  });
  return sendInvitationLink(ctx, invitation, token);
}
