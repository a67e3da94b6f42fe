import type { Role, VerbArgs } from '../../context.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { ACCEPT_PATH } from './invitationToken.ts';
import { invitationMail } from './invitationMail.ts';

export interface InvitationObject {
  id: string;
  email: string;
  role: Role;
  url: string;
  expiresAt: string;
  /** Whether the link was also mailed to the address (false without email configured, or when sending failed). */
  emailed: boolean;
}

/**
 * The reply that shows an invitation's link this once (a new invitation, or a new link for one),
 * mailing it first when email is configured; called after the commit, so a mail that fails leaves
 * the link valid.
 */
export async function sendInvitationLink(
  ctx: VerbArgs<unknown>['ctx'],
  invitation: { id: string; email: string; role: Role; expiresAt: Date },
  token: string,
): Promise<InvitationObject> {
  const url = `${ctx.services.config.baseUrl}${ACCEPT_PATH}${token}`;
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
  const organization = await lookUpOrganization(sql, ctx.organizationId);
  const result = await mailer.send(invitationMail(to, url, organization?.name ?? 'an organization', role));
  if (result.error) log.warn({ organizationId: ctx.organizationId, status: result.status, error: result.error }, 'invitation: the mail was not sent');
  return result.error === null;
}
