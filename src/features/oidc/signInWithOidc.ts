import type { InstallationCtx } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { Forbidden } from '../../lib/errors.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { type OpenedSession, openSession } from '../sessions/openSession.ts';
import { recordSignIn } from '../sessions/recordSignIn.ts';
import { findAccountByEmail } from '../accounts/accountLookups.ts';
import { NOT_A_MEMBER, joinByInvitation } from './joinByInvitation.ts';
import type { OidcIdentity } from './oidcClient.ts';
import { findPendingInvitations } from './queries.ts';

/** Signed in, or (invitations from several organizations) the vouched-for email that must choose. */
type OidcSignInOutcome = { opened: OpenedSession } | { chooseFor: string };

/**
 * The person the issuer vouched for (extensions.md, "Sign-in with OpenID Connect"): the member
 * whose email equals the ID token's verified email, any case; else a pending invitation for it is
 * accepted with its role. Anyone else is refused (403) and nothing is created. Invitations from
 * several organizations are never chosen among (the newest would let any organization capture an
 * invitee by inviting them again, decisions 200 and 213): nobody is signed in yet, and the person
 * chooses one on the dashboard's choice page.
 */
export async function signInWithOidc({ ctx, input }: { ctx: InstallationCtx; input: OidcIdentity }): Promise<OidcSignInOutcome> {
  const { sql } = ctx.services;
  if (!input.email || !input.emailVerified)
    throw new Forbidden('The identity provider did not vouch for an email address (email_verified); nobody was signed in');
  const email = input.email.trim();
  const member = await findAccountByEmail(sql, email);
  if (member) {
    const organization = await lookUpOrganization(sql, member.organizationId);
    if (!organization) throw new Forbidden(NOT_A_MEMBER);
    const opened = await withTransaction(sql, async (tx) => {
      const session = await openSession(tx, member, organization);
      await recordSignIn(tx, { organizationId: organization.id, userId: member.id, role: member.role, ip: ctx.ip });
      return session;
    });
    return { opened };
  }
  const invitations = await findPendingInvitations(sql, email, 10);
  const [invitation] = invitations;
  if (!invitation) throw new Forbidden(NOT_A_MEMBER);
  if (new Set(invitations.map((pending) => pending.organizationId)).size > 1) return { chooseFor: email };
  return { opened: await joinByInvitation(ctx, email, invitation) };
}
