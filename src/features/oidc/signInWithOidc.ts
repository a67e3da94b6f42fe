import crypto from 'node:crypto';
import type { InstallationCtx } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { Forbidden } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { type OpenedSession, openSession } from '../sessions/openSession.ts';
import { recordSignIn } from '../sessions/recordSignIn.ts';
import { createUser } from '../users/createUser.ts';
import { findAccountByEmail } from '../users/accountLookups.ts';
import type { OidcIdentity } from './oidcClient.ts';
import { consumeInvitationById, findPendingInvitation } from './queries.ts';

const NOT_A_MEMBER = 'This account is not a member of any organization here; ask an owner to invite your email';

/**
 * The person the issuer vouched for (extensions.md, "Sign-in with OpenID Connect"): the member
 * whose email equals the ID token's verified email, any case; else a pending invitation for it is
 * accepted with its role. Anyone else is refused (403) and nothing is created.
 */
export async function signInWithOidc({ ctx, input }: { ctx: InstallationCtx; input: OidcIdentity }): Promise<OpenedSession> {
  const { sql } = ctx.services;
  if (!input.email || !input.emailVerified) throw new Forbidden('The identity provider did not vouch for an email address (email_verified); nobody was signed in');
  const email = input.email.trim();
  const member = await findAccountByEmail(sql, email);
  if (member) {
    const organization = await lookUpOrganization(sql, member.organizationId);
    if (!organization) throw new Forbidden(NOT_A_MEMBER);
    return withTransaction(sql, async (tx) => {
      const opened = await openSession(tx, member, organization);
      await recordSignIn(tx, { organizationId: organization.id, userId: member.id, role: member.role, ip: ctx.ip });
      return opened;
    });
  }
  const invitation = await findPendingInvitation(sql, email);
  if (!invitation) throw new Forbidden(NOT_A_MEMBER);
  return withTransaction(sql, async (tx) => {
    if (!(await consumeInvitationById(tx, invitation.organizationId, invitation.id))) throw new Forbidden(NOT_A_MEMBER);
    const organization = await lookUpOrganization(tx, invitation.organizationId);
    if (!organization) throw new Forbidden(NOT_A_MEMBER);
    // The member signs in through the issuer; a password nobody knows keeps password sign-in shut
    // for them until they set one (the email may hold a password sign-in elsewhere: 409 there too).
    const password = crypto.randomBytes(32).toString('base64url');
    const user = await createUser({ ctx: { ...ctx, services: { sql: tx } }, input: { organizationId: organization.id, email, password, role: invitation.role } });
    const actor = { kind: 'user', userId: user.id, sessionId: '', role: invitation.role } as const;
    await recordAudit(tx, { organizationId: organization.id, actor, ip: ctx.ip }, { action: 'member.join', target: { type: 'member', id: user.id } });
    await recordSignIn(tx, { organizationId: organization.id, userId: user.id, role: invitation.role, ip: ctx.ip });
    return openSession(tx, user, organization);
  });
}
