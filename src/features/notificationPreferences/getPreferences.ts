import type { VerbArgs } from '../../context.ts';
import { DEFAULT_PREFERENCES, type PreferencesObject, preferencesObject, signedInMember } from './preferencesObject.ts';
import { findPreferences } from './queries.ts';

/** GET /api/me/notifications: the member's preferences, or the defaults before they set any. */
export async function getPreferences({ ctx }: VerbArgs<void>): Promise<PreferencesObject> {
  const userId = signedInMember(ctx);
  return preferencesObject((await findPreferences(ctx.services.sql, ctx.organizationId, userId)) ?? DEFAULT_PREFERENCES);
}
