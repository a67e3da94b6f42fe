import { type Sql, withTransaction } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { eventFromRow } from '../events/eventObject.ts';
import { type DeliveryFormat, renderDeliveryBody } from './formats.ts';
import { resolveMemberNotifications } from '../notificationPreferences/resolveMemberNotifications.ts';
import { pushPayload } from './pushPayload.ts';
import type { NewDelivery } from './deliveryRecord.ts';
import { type NewPushJob, type RoutingKey, claimOutbox, insertDeliveries, insertPushJobs, selectEvents, selectRoutedDestinations } from './queries.ts';
import { newWebhookId } from './signing.ts';
import { type HeldEvents, holdInGroup } from './groupFanOut.ts';

/**
 * One fan-out pass over a batch of outbox rows, in one transaction: the rows are claimed by
 * deleting them, and each notify event becomes one delivery per enabled destination of its
 * project whose category filter takes it (one statement for the whole batch, decision 060) and
 * one push job per browser subscription its member's preferences let it reach now (or a held row
 * and, by mail, a copy: notificationPreferences/, decision 205). A destination with a group window
 * holds its events in one delivery per window instead (groupFanOut.ts). With `organizationId`, only
 * that organization's rows, each statement on its shard on Citus (decision 233). Answers how many outbox
 * rows it took, how many deliveries and push jobs it queued due now, and in how long the soonest
 * group it opened is due (null: none).
 */
export function fanOutBatch(
  sql: Sql,
  q: { limit: number; maxAttempts: number; baseUrl: string; timeZone: string; now?: Date; organizationId?: string },
): Promise<{ taken: number; queued: number; dueInMs: number | null }> {
  return withTransaction(sql, async (tx) => {
    const claimed = await claimOutbox(tx, q.limit, q.organizationId);
    if (claimed.length === 0) return { taken: 0, queued: 0, dueInMs: null };
    // Event and project ids are unique only within their organization.
    const events = (await selectEvents(tx, claimed)).map((row) => ({
      organizationId: row.organizationId,
      projectName: row.projectName,
      event: eventFromRow(row),
      alertId: row.alertId,
    }));
    const routes = new Map<string, RoutingKey>();
    for (const { organizationId, event } of events) {
      const { projectId, category } = event;
      routes.set(JSON.stringify([organizationId, projectId, category]), { organizationId, projectId, category });
    }
    const destinations = routes.size ? await selectRoutedDestinations(tx, [...routes.values()]) : [];
    const now = q.now ?? new Date();
    const memberPushes = await resolveMemberNotifications(tx, events, { now, baseUrl: q.baseUrl, timeZone: q.timeZone, maxAttempts: q.maxAttempts });

    const deliveries: NewDelivery[] = [];
    const pushes: NewPushJob[] = [];
    const groups = new Map<string, HeldEvents>();
    for (const { organizationId, projectName, event, alertId } of events) {
      const ofProject = (row: { organizationId: string; projectId: string }) => row.organizationId === organizationId && row.projectId === event.projectId;
      const bodies = new Map<DeliveryFormat, string>();
      for (const destination of destinations) {
        if (!ofProject(destination) || destination.category !== event.category) continue;
        if (destination.groupWindowSeconds > 0) {
          const key = JSON.stringify([organizationId, destination.id]);
          const held = groups.get(key) ?? {
            organizationId,
            destinationId: destination.id,
            format: destination.format,
            windowSeconds: destination.groupWindowSeconds,
            projectId: event.projectId,
            projectName,
            events: [],
            alertIds: [],
          };
          held.events.push(event);
          held.alertIds.push(alertId);
          groups.set(key, held);
          continue;
        }
        let body = bodies.get(destination.format);
        if (body === undefined)
          bodies.set(
            destination.format,
            (body = renderDeliveryBody(destination.format, event, now, { projectName, baseUrl: q.baseUrl, timeZone: q.timeZone, alertId })),
          );
        deliveries.push({
          organizationId,
          id: newId(16),
          destinationId: destination.id,
          eventId: event.id,
          webhookId: newWebhookId(),
          body,
          maxAttempts: q.maxAttempts,
        });
      }
    }
    const payloads = new Map<number, string>();
    for (const { index, organizationId, subscriptionId } of memberPushes) {
      const { event } = events[index]!;
      let payload = payloads.get(index);
      if (payload === undefined) payloads.set(index, (payload = pushPayload(event, q.baseUrl)));
      pushes.push({ organizationId, id: newId(16), subscriptionId, eventId: event.id, payload, maxAttempts: q.maxAttempts });
    }
    for (const held of groups.values()) {
      const opened = await holdInGroup(tx, held, { now, baseUrl: q.baseUrl, timeZone: q.timeZone, maxAttempts: q.maxAttempts });
      if (opened) deliveries.push(opened);
    }
    await insertDeliveries(tx, deliveries);
    await insertPushJobs(tx, pushes);
    const later = deliveries.flatMap((delivery) => (delivery.delayMs ? [delivery.delayMs] : []));
    return {
      taken: claimed.length,
      queued: deliveries.length - later.length + pushes.length,
      dueInMs: later.length > 0 ? Math.min(...later) : null,
    };
  });
}
