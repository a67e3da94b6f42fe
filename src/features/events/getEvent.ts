import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { parsePositiveInt32 } from '../../http/parse.ts';
import { type EventObject, eventFromRow } from './eventObject.ts';
import { findEvent } from './queries.ts';

/** One event by id, wherever it is in the feed (a notification's link names only the id). */
export async function getEvent({ ctx, input }: VerbArgs<{ eventId: string }>): Promise<EventObject> {
  const eventId = parsePositiveInt32(input.eventId, 'event id');
  const row = await findEvent(ctx.services.sql, ctx.organizationId, eventId);
  if (!row) throw new NotFound('Event');
  return eventFromRow(row);
}
