import type { VerbArgs } from '../../context.ts';
import { NotFound, ServiceError } from '../../lib/errors.ts';
import { requireEmail } from '../email/requireEmail.ts';
import { composeDigest } from './composeDigest.ts';
import { DEFAULT_DIGEST } from './getDigest.ts';
import { signedInMember } from './memberOnly.ts';
import { findDigestSettings } from './queries.ts';
import { periodMs } from './schedule.ts';

/**
 * POST /api/me/digest/send: the member's digest for the period that ends now (a day, or a week
 * for a weekly digest), sent at once as a preview. It changes nothing in the schedule.
 */
export async function sendDigestNow({ ctx }: VerbArgs<undefined>): Promise<{ ok: true }> {
  const userId = signedInMember(ctx);
  const { sql, mailer, config } = ctx.services;
  requireEmail(mailer);
  const settings = (await findDigestSettings(sql, ctx.organizationId, userId)) ?? DEFAULT_DIGEST;
  const to = new Date();
  const from = new Date(to.getTime() - periodMs(settings.frequency));
  const mail = await composeDigest(sql, { organizationId: ctx.organizationId, userId, settings, from, to, baseUrl: config.baseUrl, preview: true });
  if (!mail) throw new NotFound('Member');
  const result = await mailer.send(mail);
  if (result.error !== null)
    throw new ServiceError('unavailable', `The mail server did not take the digest (${result.status ?? 'no answer'}); try again later`);
  return { ok: true };
}
