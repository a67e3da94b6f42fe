import crypto from 'node:crypto';
import type { InstallationCtx, Role } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { Forbidden } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { type OpenedSession, openSession } from '../sessions/openSession.ts';
import { recordSignIn } from '../sessions/recordSignIn.ts';
import { consumeInvitationById } from '../members/invitationWrites.ts';
import { createAccount } from '../accounts/createAccount.ts';

export const NOT_A_MEMBER = 'This account is not a member of any organization here; ask an owner to invite your email';

/**
 * Accepts one invitation for an email the issuer vouched for: the account is made in that
 * organization with the invitation's role and signed in; any other invitation of the email stays.
 */
export async function joinByInvitation(
  ctx: InstallationCtx,
  email: string,
  invitation: { organizationId: string; id: string; role: Role },
): Promise<OpenedSession> {
  return withTransaction(ctx.services.sql, async (tx) => {
    if (!(await consumeInvitationById(tx, invitation.organizationId, invitation.id))) throw new Forbidden(NOT_A_MEMBER);
    const organization = await lookUpOrganization(tx, invitation.organizationId);
    if (!organization) throw new Forbidden(NOT_A_MEMBER);
    // The member signs in through the issuer; a password nobody knows keeps password sign-in shut
    // for them until they set one (the email may hold a password sign-in elsewhere: 409 there too).
    const password = crypto.randomBytes(32).toString('base64url');
    const user = await createAccount({
      ctx: { ...ctx, services: { sql: tx } },
      input: { organizationId: organization.id, email, password, role: invitation.role },
    });
    const actor = { kind: 'user', userId: user.id, sessionId: '', role: invitation.role } as const;
    await recordAudit(tx, { organizationId: organization.id, actor, ip: ctx.ip }, { action: 'member.join', target: { type: 'member', id: user.id } });
    await recordSignIn(tx, { organizationId: organization.id, userId: user.id, role: invitation.role, ip: ctx.ip });
    return openSession(tx, user, organization);
  });
}
