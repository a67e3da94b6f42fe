import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { requireEmail } from '../email/requireEmail.ts';
import { requireProject } from '../projects/requireProject.ts';
import { type PreferencesObject, preferencesObject, signedInMember } from './preferencesObject.ts';
import { type StoredPreferences, savePreferences } from './queries.ts';
import { checkQuietHours } from './quietHours.ts';
import type { NotificationPreferencesBody } from './schemas.ts';

/**
 * PUT /api/me/notifications: replaces the member's preferences whole (a field left out takes its
 * default). Everything is checked before anything is written. Lifting quiet hours or a snooze needs
 * nothing more: the summary loop sees the member is no longer held within seconds.
 */
export async function setPreferences({ ctx, input }: VerbArgs<Static<typeof NotificationPreferencesBody>>): Promise<PreferencesObject> {
  const userId = signedInMember(ctx);
  const projects = input.projects ?? {};
  for (const projectId of Object.keys(projects)) {
    try {
      await requireProject(ctx, projectId);
    } catch (error) {
      if (error instanceof NotFound) throw new InvalidInput(`projects: no project ${JSON.stringify(projectId)} in this organization`);
      throw error;
    }
  }
  const email = input.email ?? false;
  if (email) requireEmail(ctx.services.mailer);
  const stored: StoredPreferences = {
    projects,
    email,
    quietHours: input.quietHours ? checkQuietHours(input.quietHours) : null,
    snoozedUntil: input.snoozedUntil === undefined || input.snoozedUntil === null ? null : new Date(input.snoozedUntil * 1000),
  };
  await savePreferences(ctx.services.sql, ctx.organizationId, userId, stored);
  return preferencesObject(stored);
}
