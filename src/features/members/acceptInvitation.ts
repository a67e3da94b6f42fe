import { withTransaction } from '../../db/client.ts';
import type { InstallationCtx } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { findCredentialOrganization } from '../organizations/credentials.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { type OpenedSession, openSession } from '../sessions/openSession.ts';
import { createAccount } from '../accounts/createAccount.ts';
import { UNUSABLE_INVITATION, hashInvitationToken, isWellFormedInvitationToken } from './invitationToken.ts';
import { consumeInvitation } from './invitationWrites.ts';
import { recordAudit } from '../audit/recordAudit.ts';

/**
 * POST /api/invitations/accept (no credential: the token is one): creates the account with the
 * invitation's email and role and signs it in, as POST /api/session does. Using the token up,
 * creating the account and opening the session are one transaction, so an accept refused on the
 * way (a short password, an email with an account elsewhere: 409) leaves the token unused.
 */
export async function acceptInvitation({ ctx, input }: { ctx: InstallationCtx; input: { token: string; password: string } }): Promise<OpenedSession> {
  const { services } = ctx;
  if (!isWellFormedInvitationToken(input.token)) throw new InvalidInput(UNUSABLE_INVITATION);
  const tokenHash = hashInvitationToken(input.token);
  const organizationId = await findCredentialOrganization(services.sql, 'invitation', tokenHash);
  if (organizationId === undefined) throw new InvalidInput(UNUSABLE_INVITATION);
  return withTransaction(services.sql, async (tx) => {
    const invitation = await consumeInvitation(tx, organizationId, tokenHash);
    if (!invitation) throw new InvalidInput(UNUSABLE_INVITATION);
    const organization = await lookUpOrganization(tx, organizationId);
    if (!organization) throw new NotFound('Organization');
    const user = await createAccount({
      ctx: { ...ctx, services: { sql: tx } },
      input: { organizationId, email: invitation.email, password: input.password, role: invitation.role },
    });
    const joined = { organizationId, actor: { kind: 'user', userId: user.id, sessionId: '', role: invitation.role }, ip: ctx.ip } as const;
    await recordAudit(tx, joined, { action: 'member.join', target: { type: 'member', id: user.id } });
    return openSession(tx, user, organization);
  });
}
