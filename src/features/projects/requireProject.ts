import type { Ctx } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { type ProjectRow, findProject } from './queries.ts';

/** The caller's project, or 404: the same answer for a missing id and another organization's. */
export async function requireProject(ctx: Ctx, projectId: string): Promise<ProjectRow> {
  const project = await findProject(ctx.services.sql, ctx.organizationId, projectId);
  if (!project) throw new NotFound('Project');
  return project;
}
