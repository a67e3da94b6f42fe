import { withTransaction } from '../../db/client.ts';
import type { Role, VerbArgs } from '../../context.ts';
import { Conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { validEmail } from '../users/createUser.ts';
import { ACCEPT_PATH, INVITATION_LIFETIME_SECONDS, hashInvitationToken, newInvitationToken } from './invitationToken.ts';
import { findOrganization } from '../organizations/queries.ts';
import { invitationMail } from './invitationMail.ts';
import { isMemberEmail, replaceInvitation } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';

interface InvitationObject {
  id: string;
  email: string;
  role: Role;
  url: string;
  expiresAt: string;
  /** Whether the link was also mailed to the address (false without email configured, or when sending failed). */
  emailed: boolean;
}

/**
 * POST /api/invitations: a link that lets one person join with a role. An email that has an
 * account in another organization is invited like any other, so the inviter learns nothing about
 * other organizations; the accept answers 409 then. The link is shown this once, and mailed to
 * the address when email is configured (after the commit: a mail that fails leaves the link valid).
 */
export async function inviteMember({ ctx, input }: VerbArgs<{ email: string; role: Role }>): Promise<InvitationObject> {
  const { sql, config } = ctx.services;
  const email = validEmail(input.email);
  const token = newInvitationToken();
  const invitation = await withTransaction(sql, async (tx) => {
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
  const url = `${config.baseUrl}${ACCEPT_PATH}${token}`;
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    url,
    expiresAt: invitation.expiresAt.toISOString(),
    emailed: await mailInvitation(ctx, invitation.email, url, invitation.role),
  };
}

async function mailInvitation(ctx: VerbArgs<unknown>['ctx'], to: string, url: string, role: Role): Promise<boolean> {
  const { mailer, sql, log } = ctx.services;
  if (!mailer.configured) return false;
  const organization = await findOrganization(sql, ctx.organizationId);
  const result = await mailer.send(invitationMail(to, url, organization?.name ?? 'an organization', role));
  if (result.error) log.warn({ organizationId: ctx.organizationId, status: result.status, error: result.error }, 'invitation: the mail was not sent');
  return result.error === null;
}
