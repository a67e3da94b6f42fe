import type { InstallationCtx } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { findCredentialOrganization } from '../organizations/credentials.ts';
import { findResetEmail } from './queries.ts';
import { UNUSABLE_RESET, hashResetToken, isWellFormedResetToken } from './resetToken.ts';

/**
 * POST /api/password-reset/preview (no credential: the token is one): the account a reset link
 * is for, so its page names it; a link that is unknown, expired or used is refused as confirming
 * it would be, and the page says so instead of showing a form. Changes nothing.
 */
export async function previewPasswordReset({ ctx, input }: { ctx: InstallationCtx; input: { token: string } }): Promise<{ email: string }> {
  if (!isWellFormedResetToken(input.token)) throw new InvalidInput(UNUSABLE_RESET);
  const tokenHash = hashResetToken(input.token);
  const organizationId = await findCredentialOrganization(ctx.services.sql, 'password_reset', tokenHash);
  const email = organizationId === undefined ? undefined : await findResetEmail(ctx.services.sql, organizationId, tokenHash);
  if (email === undefined) throw new InvalidInput(UNUSABLE_RESET);
  return { email };
}
