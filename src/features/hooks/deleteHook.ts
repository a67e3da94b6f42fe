import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { deleteHook as removeHook } from './queries.ts';
import { deleteCredentials } from '../organizations/credentials.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

/** The row and its token's routing row go: the token then finds nothing, like one that never existed. */
export async function deleteHook({ ctx, input }: VerbArgs<{ hookId: string }>): Promise<{ id: string; deleted: true }> {
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const removed = await removeHook(tx, ctx.organizationId, input.hookId);
    if (!removed) throw new NotFound('Incoming webhook');
    await deleteCredentials(tx, 'hook', [removed.tokenHash]);
    await recordAudit(tx, ctx, { action: 'hook.delete', target: { type: 'hook', id: removed.id } });
    return removed;
  });
  ctx.services.hooks.evict(row.id);
  ctx.services.bus.announce({ type: 'hook.deleted', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { id: row.id, deleted: true };
}
