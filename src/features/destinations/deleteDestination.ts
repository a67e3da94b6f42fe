import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { deleteDestination as removeDestination } from './queries.ts';

/** Its queued deliveries and attempt log go with it. */
export async function deleteDestination({ ctx, input }: VerbArgs<{ destinationId: string }>): Promise<{ id: string; deleted: true }> {
  const row = await removeDestination(ctx.services.sql, ctx.organizationId, input.destinationId);
  if (!row) throw new NotFound('Destination');
  ctx.services.bus.announce({ type: 'destination.deleted', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { id: row.id, deleted: true };
}
