import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { parsePositiveInt32 } from '../../http/parse.ts';
import { toggleFavorite as flip } from './queries.ts';

export async function toggleFavorite({ ctx, input }: VerbArgs<{ eventId: string }>): Promise<{ id: number; favorited: boolean }> {
  const eventId = parsePositiveInt32(input.eventId, 'event id');
  const row = await flip(ctx.services.sql, ctx.organizationId, eventId);
  if (!row) throw new NotFound('Event');
  ctx.services.bus.announce({ type: 'event.favorited', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { id: row.id, favorited: row.favorited };
}
