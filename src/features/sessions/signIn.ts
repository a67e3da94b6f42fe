import crypto from 'node:crypto';
import type { InstallationCtx } from '../../context.ts';
import { Forbidden, RateLimited, Unauthorized } from '../../lib/errors.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { hashPassword, verifyPassword } from '../accounts/password.ts';
import { findAccountByEmail } from '../accounts/accountLookups.ts';
import { type OpenedSession, openSession } from './openSession.ts';
import { SignInThrottle } from './signInThrottle.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';
import { recordSignIn } from './recordSignIn.ts';

interface SignInInput {
  email: string;
  password: string;
  /** The client address, for throttling. */
  ip: string;
}

const WRONG_CREDENTIALS = 'Email or password is incorrect';

// Checked against when the email is unknown, so both failures cost one scrypt and look alike.
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => (dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex')));

export async function signIn({ ctx, throttle, input }: { ctx: InstallationCtx; throttle: SignInThrottle; input: SignInInput }): Promise<OpenedSession> {
  const { services } = ctx;
  if (!services.config.passwordSignIn) throw new Forbidden('Password sign-in is turned off here; sign in with your identity provider');
  const keys = SignInThrottle.keys(input.ip, input.email);
  if (!throttle.tryAttempt(keys)) {
    throw new RateLimited('Too many failed sign-in attempts; wait 15 minutes and try again');
  }
  const user = await findAccountByEmail(services.sql, input.email.trim());
  const passwordMatches = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user) throw new Unauthorized(WRONG_CREDENTIALS);
  if (!passwordMatches) {
    // A wrong password for one of an organization's members is that organization's business.
    await recordAudit(
      services.sql,
      { organizationId: user.organizationId, actor: null, ip: input.ip },
      { action: 'session.signin_failed', target: { type: 'member', id: user.id } },
    );
    throw new Unauthorized(WRONG_CREDENTIALS);
  }
  throttle.succeeded(keys);

  const organization = await lookUpOrganization(services.sql, user.organizationId);
  if (!organization) throw new Unauthorized(WRONG_CREDENTIALS);
  return withTransaction(services.sql, async (tx) => {
    const opened = await openSession(tx, user, organization);
    await recordSignIn(tx, { organizationId: organization.id, userId: user.id, role: user.role, ip: input.ip });
    return opened;
  });
}
