import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { type DestinationObject, destinationFromRow } from './destinationObject.ts';
import { setDestinationEnabled as updateEnabled } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

/** A disabled destination gets no new deliveries; those already queued fail without being sent. */
export async function setDestinationEnabled({ ctx, input }: VerbArgs<{ destinationId: string; enabled: boolean }>): Promise<DestinationObject> {
  // Switching on and off changes the destination: destination.update.
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const updated = await updateEnabled(tx, ctx.organizationId, input.destinationId, input.enabled);
    if (!updated) throw new NotFound('Destination');
    await recordAudit(tx, ctx, { action: 'destination.update', target: { type: 'destination', id: updated.id } });
    return updated;
  });
  ctx.services.bus.announce({ type: 'destination.updated', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return destinationFromRow(row);
}
