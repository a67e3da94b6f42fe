import { withTransaction } from '../../db/client.ts';
import type { InstallationCtx } from '../../context.ts';
import { RateLimited } from '../../lib/errors.ts';
import { requireEmail } from '../email/requireEmail.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import type { SignInThrottle } from '../sessions/signInThrottle.ts';
import { findAccountByEmail } from '../users/accountLookups.ts';
import { replacePasswordReset } from './queries.ts';
import { resetMail } from './resetMail.ts';
import { RESET_LIFETIME_SECONDS, RESET_PATH, hashResetToken, newResetToken } from './resetToken.ts';

/**
 * POST /api/password-reset (no credential): when the email is a member's, a new link replaces any
 * pending one and is mailed. The answer is the same whether or not the email is known, and the
 * mail is sent after the reply, so neither the answer nor its timing tells who has an account.
 * Every request counts against the client address and the email (never refunded), so the
 * route cannot be used to flood someone's mailbox. The token is never logged or stored.
 */
export async function requestPasswordReset({
  ctx,
  throttle,
  input,
}: {
  ctx: InstallationCtx;
  throttle: SignInThrottle;
  input: { email: string; ip: string };
}): Promise<{ ok: true }> {
  const { services } = ctx;
  requireEmail(services.mailer);
  if (!throttle.tryAttempt({ ip: `ip:${input.ip}`, email: `email:${input.email.trim().toLowerCase()}` })) {
    throw new RateLimited('Too many password reset requests; wait 15 minutes and try again');
  }
  const user = await findAccountByEmail(services.sql, input.email.trim());
  if (!user) return { ok: true };
  const token = newResetToken();
  const organization = await withTransaction(services.sql, async (tx) => {
    await replacePasswordReset(tx, {
      organizationId: user.organizationId,
      userId: user.id,
      tokenHash: hashResetToken(token),
      lifetimeSeconds: RESET_LIFETIME_SECONDS,
    });
    return lookUpOrganization(tx, user.organizationId);
  });
  const mail = resetMail(user.email, `${services.config.baseUrl}${RESET_PATH}${token}`, organization?.name ?? 'your organization');
  void services.mailer.send(mail).then((result) => {
    if (result.error) services.log.warn({ organizationId: user.organizationId, status: result.status, error: result.error }, 'password reset: the mail was not sent');
  });
  return { ok: true };
}
