import type { TransactionSql } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import type { EventObject } from '../events/eventObject.ts';
import type { DeliveryFormat } from './formats.ts';
import { renderDeliveryBody } from './formats.ts';
import { GROUP_TITLES, renderGroupBody } from './groupBody.ts';
import { extendGroup, lockOpenGroup, selectGroupTitles } from './groupQueries.ts';
import type { NewDelivery } from './deliveryRecord.ts';
import { newWebhookId } from './signing.ts';

/** A grouped destination's notify events of one fan-out batch, oldest first. */
export interface HeldEvents {
  organizationId: string;
  destinationId: string;
  format: DeliveryFormat;
  windowSeconds: number;
  projectId: string;
  projectName: string;
  events: EventObject[];
  /** Each event's alert, if an alert wrote it (same order as `events`). */
  alertIds: Array<string | null>;
}

/**
 * Grouping bursts (decision 178), inside the fan-out's transaction: the events join the
 * destination's open group (its body rendered again for all of them), or open a new one, a
 * delivery due at the window's end. Answers with the new group delivery to insert, if any.
 */
export async function holdInGroup(
  tx: TransactionSql,
  held: HeldEvents,
  q: { now: Date; baseUrl: string; timeZone: string; maxAttempts: number },
): Promise<NewDelivery | null> {
  const open = await lockOpenGroup(tx, held.organizationId, held.destinationId);
  const eventIds = [...(open?.eventIds ?? []), ...held.events.map((event) => event.id)];
  const body = await groupBody(tx, held, eventIds, q);
  if (open) {
    await extendGroup(tx, { organizationId: held.organizationId, id: open.id, eventIds, body });
    return null;
  }
  return {
    organizationId: held.organizationId,
    id: newId(16),
    destinationId: held.destinationId,
    eventId: eventIds[0] as number,
    webhookId: newWebhookId(),
    body,
    maxAttempts: q.maxAttempts,
    eventIds,
    delayMs: held.windowSeconds * 1000,
  };
}

/** A single event's usual body, or the group's message for n > 1. */
async function groupBody(tx: TransactionSql, held: HeldEvents, eventIds: number[], q: { now: Date; baseUrl: string; timeZone: string }): Promise<string> {
  const [only] = held.events;
  if (eventIds.length === 1 && only) {
    return renderDeliveryBody(held.format, only, q.now, {
      projectName: held.projectName,
      baseUrl: q.baseUrl,
      timeZone: q.timeZone,
      alertId: held.alertIds[0] ?? null,
    });
  }
  const newest = await selectGroupTitles(tx, { organizationId: held.organizationId, eventIds, limit: GROUP_TITLES });
  const titles = newest.map((row) => (row.icon ? `${row.icon} ${row.title}` : row.title));
  const group = { count: eventIds.length, titles, projectId: held.projectId, projectName: held.projectName };
  return renderGroupBody(held.format, group, q.now, { baseUrl: q.baseUrl, timeZone: q.timeZone });
}
