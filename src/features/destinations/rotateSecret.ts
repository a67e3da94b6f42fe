import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { type DestinationObject, destinationFromRow } from './destinationObject.ts';
import { replaceSecret } from './queries.ts';
import { newSigningSecret } from '../delivery/signing.ts';

/** Deliveries still queued are signed with the new secret when they are sent. */
export async function rotateSecret({ ctx, input }: VerbArgs<{ destinationId: string }>): Promise<DestinationObject> {
  const row = await replaceSecret(ctx.services.sql, ctx.organizationId, input.destinationId, newSigningSecret());
  if (!row) throw new NotFound('Destination');
  if (row.format !== 'json') throw new InvalidInput(`A ${row.format} destination is not signed, so it has no secret to rotate`);
  ctx.services.bus.announce({ type: 'destination.updated', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return destinationFromRow(row);
}
