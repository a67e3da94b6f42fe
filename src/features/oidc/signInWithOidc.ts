import crypto from 'node:crypto';
import type { InstallationCtx } from '../../context.ts';
import { type Db, withTransaction } from '../../db/client.ts';
import { Forbidden } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { type OpenedSession, openSession } from '../sessions/openSession.ts';
import { recordSignIn } from '../sessions/recordSignIn.ts';
import { createUser } from '../users/createUser.ts';
import { findAccountByEmail } from '../users/accountLookups.ts';
import type { OidcIdentity } from './oidcClient.ts';
import { consumeInvitationById, findPendingInvitations } from './queries.ts';

const NOT_A_MEMBER = 'This account is not a member of any organization here; ask an owner to invite your email';

/**
 * The person the issuer vouched for (extensions.md, "Sign-in with OpenID Connect"): the member
 * whose email equals the ID token's verified email, any case; else a pending invitation for it is
 * accepted with its role. Anyone else is refused (403) and nothing is created. Invitations from
 * several organizations are never chosen among (the newest would let any organization capture an
 * invitee by inviting them again, decision 200): nobody is signed in, and the person accepts the
 * one they want by the link of its mail.
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
  const invitations = await findPendingInvitations(sql, email, 10);
  const [invitation] = invitations;
  if (!invitation) throw new Forbidden(NOT_A_MEMBER);
  const organizations = new Set(invitations.map((pending) => pending.organizationId));
  if (organizations.size > 1) throw new Forbidden(await severalInvitations(sql, [...organizations]));
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

async function severalInvitations(sql: Db, organizationIds: string[]): Promise<string> {
  const names = await Promise.all(organizationIds.map(async (id) => (await lookUpOrganization(sql, id))?.name ?? 'an organization'));
  return `Invitations from ${names.length} organizations wait for this email (${names.join(', ')}); nobody was signed in. Open the link in the invitation mail of the one you want to join, then sign in again`;
}
