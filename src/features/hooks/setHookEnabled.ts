import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { type HookObject, hookFromRow } from './hookObject.ts';
import { setHookEnabled as updateEnabled } from './queries.ts';
import { hookTokenKey } from './tokenKey.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

/** Pause (enabled false) or resume. A paused hook answers exactly like an unknown one. */
export async function setHookEnabled({ ctx, input }: VerbArgs<{ hookId: string; enabled: boolean }>): Promise<HookObject> {
  const { sql, config } = ctx.services;
  // Pausing and resuming are audited as hook.update, like renaming (updateHook.ts).
  const row = await withTransaction(sql, async (tx) => {
    const updated = await updateEnabled(tx, ctx.organizationId, input.hookId, input.enabled);
    if (!updated) throw new NotFound('Incoming webhook');
    await recordAudit(tx, ctx, { action: 'hook.update', target: { type: 'hook', id: updated.id } });
    return updated;
  });
  // Evicted here before answering; other processes hear of it through the bus.
  ctx.services.hooks.evict(row.id);
  ctx.services.bus.announce({ type: 'hook.updated', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return hookFromRow(row, config.baseUrl, await hookTokenKey(sql));
}
