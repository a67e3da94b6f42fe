import type { TransactionSql } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { criticalAlerts } from '../alerts/criticalAlerts.ts';
import { renderEventEmail } from '../delivery/emailMessage.ts';
import { queueMail } from '../email/queueMail.ts';
import type { EventObject } from '../events/eventObject.ts';
import { type AudienceKey, type AudienceRow, type NewHeld, insertHeld, selectAudience } from './queries.ts';
import { isHolding } from './quietHours.ts';

/** A notify event being fanned out, and the alert that wrote it, if one did. */
interface MemberEvent {
  organizationId: string;
  projectName: string;
  event: EventObject;
  alertId: string | null;
}

/** A push the member is owed now: the event (by its place in the batch) to one browser subscription. */
interface MemberPush {
  index: number;
  organizationId: string;
  subscriptionId: string;
}

/**
 * Applies each member's preferences to a fan-out batch, in its transaction: one statement finds the
 * batch's audience (subscriptions and email copies with their members' preferences, without the
 * members whose level already rules the batch out). A level of
 * "none", or "alerts" for an event no alert wrote, sends nothing; a member in quiet hours or a
 * snooze gets one held row per event (decision 205), unless a critical alert wrote it; the rest
 * get their email copy queued here and their pushes returned for the caller's push jobs.
 */
export async function resolveMemberNotifications(
  tx: TransactionSql,
  events: readonly MemberEvent[],
  q: { now: Date; baseUrl: string; timeZone: string; maxAttempts: number },
): Promise<MemberPush[]> {
  // Members at "alerts" are read only for the projects where an alert wrote one of the events.
  const projects = new Map<string, AudienceKey>();
  for (const { organizationId, event, alertId } of events) {
    const key = JSON.stringify([organizationId, event.projectId]);
    projects.set(key, { organizationId, projectId: event.projectId, alerts: (projects.get(key)?.alerts ?? false) || alertId !== null });
  }
  if (projects.size === 0) return [];
  const audience = await selectAudience(tx, [...projects.values()]);
  if (audience.length === 0) return [];
  const byProject = new Map<string, AudienceRow[]>();
  for (const row of audience) {
    const key = JSON.stringify([row.organizationId, row.projectId]);
    byProject.set(key, [...(byProject.get(key) ?? []), row]);
  }
  const alertKeys = events.flatMap(({ organizationId, alertId }) => (alertId ? [{ organizationId, alertId }] : []));
  const critical = await criticalAlerts(tx, alertKeys);
  const holding = new Map<string, boolean>();
  const isHeld = (row: AudienceRow) => {
    const member = JSON.stringify([row.organizationId, row.userId]);
    let held = holding.get(member);
    if (held === undefined) holding.set(member, (held = isHolding({ quietHours: row.quietHours, snoozedUntil: row.snoozedUntil }, q.now)));
    return held;
  };

  const pushes: MemberPush[] = [];
  const held = new Map<string, NewHeld>();
  for (const [index, { organizationId, projectName, event, alertId }] of events.entries()) {
    const getsThrough = alertId !== null && critical.has(JSON.stringify([organizationId, alertId]));
    for (const row of byProject.get(JSON.stringify([organizationId, event.projectId])) ?? []) {
      if (row.level === 'alerts' && alertId === null) continue;
      if (!getsThrough && isHeld(row)) {
        // One held row per member and event, whatever the number of their browsers.
        const key = JSON.stringify([organizationId, row.userId, event.id]);
        if (!held.has(key))
          held.set(key, { organizationId, userId: row.userId, id: newId(16), projectId: event.projectId, eventId: event.id, title: event.title });
      } else if (row.subscriptionId !== null) {
        pushes.push({ index, organizationId, subscriptionId: row.subscriptionId });
      } else if (row.address !== null) {
        // The member's own zone when their quiet hours name one, else the installation's.
        const mail = renderEventEmail(event, { projectName, baseUrl: q.baseUrl, timeZone: row.quietHours?.timeZone ?? q.timeZone, alertId });
        await queueMail(tx, { organizationId, kind: 'notification', mail: { to: [row.address], ...mail }, maxAttempts: q.maxAttempts });
      }
    }
  }
  await insertHeld(tx, [...held.values()], q.now);
  return pushes;
}
