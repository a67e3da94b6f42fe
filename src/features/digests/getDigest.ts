import type { VerbArgs } from '../../context.ts';
import { signedInMember } from './memberOnly.ts';
import { findDigestSettings } from './queries.ts';
import type { DigestSettings } from './schedule.ts';

/** Until a member chooses, no digest: off, at 08:00 UTC if switched on without saying more. */
export const DEFAULT_DIGEST: DigestSettings = { frequency: 'off', hour: 8, timeZone: 'UTC' };

export async function getDigest({ ctx }: VerbArgs<undefined>): Promise<DigestSettings> {
  const userId = signedInMember(ctx);
  return (await findDigestSettings(ctx.services.sql, ctx.organizationId, userId)) ?? DEFAULT_DIGEST;
}
