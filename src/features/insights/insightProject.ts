import type { VerbArgs } from '../../context.ts';
import { parsePositiveInt32 } from '../../http/parse.ts';
import { findInsightProject } from './queries.ts';

/** The project of an insight the path names, for a key limited to some projects (http/routeScope.ts). */
export async function insightProject({ ctx, input }: VerbArgs<{ insightId?: string }>): Promise<string | undefined> {
  return findInsightProject(ctx.services.sql, ctx.organizationId, parsePositiveInt32(input.insightId ?? '', 'insight id'));
}
