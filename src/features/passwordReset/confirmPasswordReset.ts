import { withTransaction } from '../../db/client.ts';
import type { InstallationCtx } from '../../context.ts';
import { MEMBER_REMOVED } from '../../db/announcements.ts';
import { InvalidInput, RateLimited } from '../../lib/errors.ts';
import { findCredentialOrganization } from '../organizations/credentials.ts';
import { SignInThrottle } from '../sessions/signInThrottle.ts';
import { checkNewPassword } from '../accounts/createAccount.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { hashPassword } from '../accounts/password.ts';
import { endSessionsOfUser } from '../sessions/endSessions.ts';
import { setAccountPassword } from '../accounts/accountChanges.ts';
import { consumePasswordReset } from './resetLinks.ts';
import { UNUSABLE_RESET, hashResetToken, isWellFormedResetToken } from './resetToken.ts';

/**
 * POST /api/password-reset/confirm (no credential: the token is one): sets the member's password
 * and ends every session of theirs, in one transaction with using the token up. A password that
 * is too short is refused before, and leaves the link usable. Failures count against the client
 * address like wrong sign-in passwords; a success gives the attempt back.
 */
export async function confirmPasswordReset({
  ctx,
  throttle,
  input,
}: {
  ctx: InstallationCtx;
  throttle: SignInThrottle;
  input: { token: string; password: string; ip: string };
}): Promise<{ ok: true }> {
  const { services } = ctx;
  const keys = { ip: SignInThrottle.addressKey(input.ip), email: `reset:${input.token.slice(0, 64)}` };
  if (!throttle.tryAttempt(keys)) throw new RateLimited('Too many failed password reset attempts; wait 15 minutes and try again');
  checkNewPassword(input.password);
  if (!isWellFormedResetToken(input.token)) throw new InvalidInput(UNUSABLE_RESET);
  const tokenHash = hashResetToken(input.token);
  const organizationId = await findCredentialOrganization(services.sql, 'password_reset', tokenHash);
  if (organizationId === undefined) throw new InvalidInput(UNUSABLE_RESET);
  const passwordHash = await hashPassword(input.password);
  const userId = await withTransaction(services.sql, async (tx) => {
    const member = await consumePasswordReset(tx, organizationId, tokenHash);
    if (!member || !(await setAccountPassword(tx, organizationId, member, passwordHash))) return undefined;
    await endSessionsOfUser(tx, organizationId, member);
    await recordAudit(
      tx,
      { organizationId, actor: { kind: 'user', userId: member }, ip: input.ip },
      { action: 'password.reset', target: { type: 'member', id: member } },
    );
    return member;
  });
  if (userId === undefined) throw new InvalidInput(UNUSABLE_RESET);
  throttle.succeeded(keys);
  // Their sessions are gone: every process closes the live streams those sessions opened.
  services.bus.announce({ type: MEMBER_REMOVED, organizationId, id: userId });
  return { ok: true };
}
