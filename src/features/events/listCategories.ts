import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { requireProject } from '../projects/requireProject.ts';
import { categoryCounts } from './categoryQueries.ts';

/** The dashboard's category sidebar: every category of a project with its event count. */
export async function listCategories({ ctx, input }: VerbArgs<{ project?: string }>): Promise<Array<{ name: string; count: number }>> {
  if (!input.project) throw new NotFound('Project');
  await requireProject(ctx, input.project);
  return categoryCounts(ctx.services.sql, ctx.organizationId, input.project);
}
