import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { type DestinationObject, destinationFromRow } from './destinationObject.ts';
import { setDestinationEnabled as updateEnabled } from './queries.ts';

/** A disabled destination gets no new deliveries; those already queued fail without being sent. */
export async function setDestinationEnabled({
  ctx,
  input,
}: VerbArgs<{ destinationId: string; enabled: boolean }>): Promise<DestinationObject> {
  const row = await updateEnabled(ctx.services.sql, ctx.organizationId, input.destinationId, input.enabled);
  if (!row) throw new NotFound('Destination');
  ctx.services.bus.announce({ type: 'destination.updated', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return destinationFromRow(row);
}
