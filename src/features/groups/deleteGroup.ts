import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { requireProject } from '../projects/requireProject.ts';
import { groupIdCanExist } from './groupInput.ts';
import { deleteGroupRow } from './queries.ts';

/** DELETE /api/groups/:groupId: the group and its memberships; its users and their events stay. */
export async function deleteGroup({ ctx, input }: VerbArgs<{ project?: string; groupId: string }>): Promise<{ id: string; deleted: true }> {
  if (!input.project) throw new InvalidInput('project is required');
  await requireProject(ctx, input.project);
  if (!groupIdCanExist(input.groupId)) throw new NotFound('Group');
  const existed = await deleteGroupRow(ctx.services.sql, { organizationId: ctx.organizationId, projectId: input.project, groupId: input.groupId });
  if (!existed) throw new NotFound('Group');
  return { id: input.groupId, deleted: true };
}
