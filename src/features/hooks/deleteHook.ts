import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { deleteHook as removeHook } from './queries.ts';

/** The row and its token's routing row go: the token then finds nothing, like one that never existed. */
export async function deleteHook({ ctx, input }: VerbArgs<{ hookId: string }>): Promise<{ id: string; deleted: true }> {
  const row = await removeHook(ctx.services.sql, ctx.organizationId, input.hookId);
  if (!row) throw new NotFound('Incoming webhook');
  ctx.services.hooks.evict(row.id);
  ctx.services.bus.announce({ type: 'hook.deleted', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { id: row.id, deleted: true };
}
