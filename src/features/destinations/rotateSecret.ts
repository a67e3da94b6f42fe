import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { type DestinationObject, destinationFromRow } from './destinationObject.ts';
import { replaceSecret } from './queries.ts';
import { newSigningSecret } from '../delivery/signing.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

/** Deliveries still queued are signed with the new secret when they are sent. */
export async function rotateSecret({ ctx, input }: VerbArgs<{ destinationId: string }>): Promise<DestinationObject> {
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const rotated = await replaceSecret(tx, ctx.organizationId, input.destinationId, newSigningSecret());
    if (!rotated) throw new NotFound('Destination');
    if (rotated.format !== 'json') throw new InvalidInput(`A ${rotated.format} destination is not signed, so it has no secret to rotate`);
    await recordAudit(tx, ctx, { action: 'destination.rotate_secret', target: { type: 'destination', id: rotated.id } });
    return rotated;
  });
  ctx.services.bus.announce({ type: 'destination.updated', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return destinationFromRow(row);
}
