import { withTransaction } from '../../db/client.ts';
import type { InstallationCtx, Services } from '../../context.ts';
import { RateLimited } from '../../lib/errors.ts';
import { queueMail } from '../email/queueMail.ts';
import { requireEmail } from '../email/requireEmail.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { SignInThrottle } from '../sessions/signInThrottle.ts';
import { findAccountByEmail } from '../accounts/accountLookups.ts';
import { replacePasswordReset } from './resetLinks.ts';
import { resetMail } from './resetMail.ts';
import { RESET_LIFETIME_SECONDS, RESET_PATH, hashResetToken, newResetToken } from './resetToken.ts';

/**
 * POST /api/password-reset (no credential): when the email is a member's, a new link replaces any
 * pending one and is mailed through the durable mail queue. The answer is the same whether or not
 * the email is known, and so is its timing: the reply depends only on the throttle, and every
 * look-up (is it a member's email?) runs after it has gone (decision 200). Every request counts
 * against the client address and the email (never refunded), so the route cannot be used to flood
 * someone's mailbox. The token is never logged or stored.
 */
export function requestPasswordReset({ ctx, throttle, input }: { ctx: InstallationCtx; throttle: SignInThrottle; input: { email: string; ip: string } }): {
  ok: true;
} {
  const { services } = ctx;
  requireEmail(services.mailer);
  if (!throttle.tryAttempt(SignInThrottle.keys(input.ip, input.email))) {
    throw new RateLimited('Too many password reset requests; wait 15 minutes and try again');
  }
  // setImmediate: after this turn, in which the reply is written.
  setImmediate(() => {
    queueResetMail(services, input.email.trim()).catch((error: unknown) => services.log.warn({ err: error }, 'password reset: the link could not be queued'));
  });
  return { ok: true };
}

async function queueResetMail(services: Services, email: string): Promise<void> {
  const user = await findAccountByEmail(services.sql, email);
  if (!user) return;
  const token = newResetToken();
  await withTransaction(services.sql, async (tx) => {
    await replacePasswordReset(tx, {
      organizationId: user.organizationId,
      userId: user.id,
      tokenHash: hashResetToken(token),
      lifetimeSeconds: RESET_LIFETIME_SECONDS,
    });
    const organization = await lookUpOrganization(tx, user.organizationId);
    const mail = resetMail(user.email, `${services.config.baseUrl}${RESET_PATH}${token}`, organization?.name ?? 'your organization');
    await queueMail(tx, { organizationId: user.organizationId, kind: 'password_reset', mail });
  });
  services.mailQueue.wake();
}
