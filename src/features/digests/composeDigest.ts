import type { Db } from '../../db/client.ts';
import type { OutgoingMail } from '../../ports.ts';
import { summarisedNotifications } from '../notificationPreferences/summarisedNotifications.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { buildDigest } from './digestContent.ts';
import { digestMail } from './digestMail.ts';
import { findMemberEmail } from './queries.ts';
import type { DigestSettings } from './schedule.ts';

/** The member's digest covering [from, to) as a mail to them; undefined when the member is gone. */
export async function composeDigest(
  sql: Db,
  q: { organizationId: string; userId: string; settings: DigestSettings; from: Date; to: Date; baseUrl: string; preview: boolean },
): Promise<OutgoingMail | undefined> {
  const email = await findMemberEmail(sql, q.organizationId, q.userId);
  const organization = await lookUpOrganization(sql, q.organizationId);
  if (!email || !organization) return undefined;
  const digest = await buildDigest(sql, q.organizationId, q.from, q.to);
  // What the member's quiet hours and snoozes held and their summaries then delivered.
  const held = await summarisedNotifications(sql, { organizationId: q.organizationId, userId: q.userId, from: q.from, to: q.to, limit: 20 });
  const label = q.settings.frequency === 'weekly' ? 'weekly' : 'daily';
  return digestMail(email, digest, {
    organizationName: organization.name,
    baseUrl: q.baseUrl,
    timeZone: q.settings.timeZone,
    label: q.preview ? `${label} (preview)` : label,
    held,
  });
}
