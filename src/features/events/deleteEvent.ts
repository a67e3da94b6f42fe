import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { parsePositiveInt32 } from '../../http/parse.ts';
import { deleteEvent as removeEvent } from './deleteQueries.ts';

export async function deleteEvent({ ctx, input }: VerbArgs<{ eventId: string }>): Promise<{ id: number; deleted: true }> {
  const eventId = parsePositiveInt32(input.eventId, 'event id');
  const row = await removeEvent(ctx.services.sql, { organizationId: ctx.organizationId, eventId, timeZone: ctx.services.config.timeZone });
  if (!row) throw new NotFound('Event');
  ctx.services.bus.announce({ type: 'event.deleted', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { id: row.id, deleted: true };
}
