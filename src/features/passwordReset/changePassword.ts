import { withTransaction } from '../../db/client.ts';
import type { VerbArgs } from '../../context.ts';
import { Forbidden, InvalidInput, RateLimited } from '../../lib/errors.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { hashFromSessionId } from '../sessions/sessionToken.ts';
import { SignInThrottle } from '../sessions/signInThrottle.ts';
import { checkNewPassword } from '../accounts/createAccount.ts';
import { hashPassword, verifyPassword } from '../accounts/password.ts';
import { endSessionsOfUser } from '../sessions/endSessions.ts';
import { setAccountPassword } from '../accounts/accountChanges.ts';
import { findPasswordHash } from './queries.ts';

/**
 * POST /api/me/password (a dashboard session only): the signed-in member sets a new password,
 * proving the current one first. Every other session of theirs ends (a stolen session cannot
 * outlive the change); the one that asked stays signed in. Wrong current passwords count like
 * wrong sign-in passwords, per client address and per member, so a borrowed session cannot be
 * used to guess the password behind it; a right one gives the attempt back.
 */
export async function changePassword({
  ctx,
  throttle,
  input,
}: VerbArgs<{ currentPassword: string; newPassword: string }> & { throttle: SignInThrottle }): Promise<{ ok: true }> {
  const { actor, organizationId, services } = ctx;
  if (actor.kind !== 'user') throw new Forbidden('A password belongs to a dashboard member: sign in to the dashboard to change yours');
  const keys = { ip: SignInThrottle.addressKey(ctx.ip ?? ''), email: `member:${organizationId}:${actor.userId}` };
  if (!throttle.tryAttempt(keys)) {
    throw new RateLimited('Too many wrong current passwords; wait and try again', throttle.blockedForSeconds(keys));
  }
  const stored = await findPasswordHash(services.sql, organizationId, actor.userId);
  if (!stored || !(await verifyPassword(input.currentPassword, stored))) throw new InvalidInput('currentPassword is not your current password');
  throttle.succeeded(keys);
  checkNewPassword(input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await withTransaction(services.sql, async (tx) => {
    await setAccountPassword(tx, organizationId, actor.userId, passwordHash);
    await endSessionsOfUser(tx, organizationId, actor.userId, hashFromSessionId(actor.sessionId));
    await recordAudit(tx, { organizationId, actor, ip: ctx.ip }, { action: 'password.reset', target: { type: 'member', id: actor.userId } });
  });
  return { ok: true };
}
