import type { Static } from '@sinclair/typebox';
import type { Ctx } from '../../context.ts';
import { Forbidden } from '../../lib/errors.ts';
import type { StoredPreferences } from './queries.ts';
import type { NotificationPreferences } from './schemas.ts';

export type PreferencesObject = Static<typeof NotificationPreferences>;

export const DEFAULT_PREFERENCES: StoredPreferences = { projects: {}, email: false, quietHours: null, snoozedUntil: null };

export function preferencesObject(stored: StoredPreferences): PreferencesObject {
  return {
    projects: stored.projects,
    email: stored.email,
    quietHours: stored.quietHours,
    snoozedUntil: stored.snoozedUntil ? Math.floor(stored.snoozedUntil.getTime() / 1000) : null,
  };
}

/** Preferences belong to a dashboard member: an API key gets 403. */
export function signedInMember(ctx: Ctx): string {
  if (ctx.actor.kind !== 'user') throw new Forbidden('Notification preferences belong to a dashboard member: sign in to the dashboard to read or change yours');
  return ctx.actor.userId;
}
