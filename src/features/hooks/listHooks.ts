import type { VerbArgs } from '../../context.ts';
import { requireProject } from '../projects/requireProject.ts';
import { type HookObject, hookFromRow } from './hookObject.ts';
import { listHooks as selectHooks } from './queries.ts';
import { hookTokenKey } from './tokenKey.ts';

export async function listHooks({ ctx, input }: VerbArgs<{ projectId: string }>): Promise<HookObject[]> {
  // An empty list must not stand for another organization's project: that is a 404.
  await requireProject(ctx, input.projectId);
  const { sql, config } = ctx.services;
  const [rows, key] = await Promise.all([selectHooks(sql, ctx.organizationId, input.projectId), hookTokenKey(sql)]);
  return rows.map((row) => hookFromRow(row, config.baseUrl, key));
}
