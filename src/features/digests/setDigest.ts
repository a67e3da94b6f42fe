import type { VerbArgs } from '../../context.ts';
import { requireEmail } from '../email/requireEmail.ts';
import { signedInMember } from './memberOnly.ts';
import { saveDigestSettings } from './queries.ts';
import { type DigestSettings, checkTimeZone, nextDigestAt } from './schedule.ts';

/**
 * PUT /api/me/digest: the member's choice, and the next moment a digest is owed (none when off).
 * Switching a digest on needs email configured (400 otherwise); switching it off never does.
 */
export async function setDigest({ ctx, input }: VerbArgs<DigestSettings>): Promise<DigestSettings> {
  const userId = signedInMember(ctx);
  const settings: DigestSettings = { frequency: input.frequency, hour: input.hour, timeZone: checkTimeZone(input.timeZone) };
  if (settings.frequency !== 'off') requireEmail(ctx.services.mailer);
  await saveDigestSettings(ctx.services.sql, { ...settings, organizationId: ctx.organizationId, userId, nextDueAt: nextDigestAt(settings, new Date()) });
  return settings;
}
