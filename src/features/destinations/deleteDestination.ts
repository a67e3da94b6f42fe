import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { deleteDestination as removeDestination } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

/** Its queued deliveries and attempt log go with it. */
export async function deleteDestination({ ctx, input }: VerbArgs<{ destinationId: string }>): Promise<{ id: string; deleted: true }> {
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const removed = await removeDestination(tx, ctx.organizationId, input.destinationId);
    if (!removed) throw new NotFound('Destination');
    await recordAudit(tx, ctx, { action: 'destination.delete', target: { type: 'destination', id: removed.id } });
    return removed;
  });
  ctx.services.bus.announce({ type: 'destination.deleted', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { id: row.id, deleted: true };
}
