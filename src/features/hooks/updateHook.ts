import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { checkHookCategory, checkHookName } from './createHook.ts';
import { type HookObject, hookFromRow } from './hookObject.ts';
import { updateHook as update } from './queries.ts';
import { checkTemplateName } from './templates/index.ts';
import { hookTokenKey } from './tokenKey.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

interface UpdateHookInput {
  hookId: string;
  name?: string;
  category?: string;
  template?: string | null;
}

/**
 * PATCH: the fields given replace the saved ones, each checked as at creation. The URL and its
 * token never change: a leaked URL is still handled by deleting the hook (product spec).
 */
export async function updateHook({ ctx, input }: VerbArgs<UpdateHookInput>): Promise<HookObject> {
  const change = {
    ...(input.name !== undefined ? { name: checkHookName(input.name) } : {}),
    ...(input.category !== undefined ? { category: checkHookCategory(input.category) } : {}),
    ...(input.template !== undefined ? { template: input.template === null ? null : checkTemplateName(input.template) } : {}),
  };
  if (Object.keys(change).length === 0) throw new InvalidInput('Give at least one of name, category and template');
  const { sql, config } = ctx.services;
  const row = await withTransaction(sql, async (tx) => {
    const updated = await update(tx, ctx.organizationId, input.hookId, change);
    if (!updated) throw new NotFound('Incoming webhook');
    await recordAudit(tx, ctx, { action: 'hook.update', target: { type: 'hook', id: updated.id } });
    return updated;
  });
  // The token cache holds the category and template the hook's events get: evicted here before
  // answering, and in other processes through the bus.
  ctx.services.hooks.evict(row.id);
  ctx.services.bus.announce({ type: 'hook.updated', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return hookFromRow(row, config.baseUrl, await hookTokenKey(sql));
}
