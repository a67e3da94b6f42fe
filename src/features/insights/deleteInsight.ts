import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { parsePositiveInt32 } from '../../http/parse.ts';
import { deleteInsight as removeInsight } from './queries.ts';

export async function deleteInsight({ ctx, input }: VerbArgs<{ insightId: string }>): Promise<{ id: number; deleted: true }> {
  const insightId = parsePositiveInt32(input.insightId, 'insight id');
  const row = await removeInsight(ctx.services.sql, ctx.organizationId, insightId);
  if (!row) throw new NotFound('Insight');
  ctx.services.bus.announce({ type: 'insight.deleted', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return { id: row.id, deleted: true };
}
