import type { Ctx } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { groupIdCanExist } from './groupInput.ts';
import { groupExists } from './queries.ts';

/**
 * For the feed's and the charts' `group` filter: the project's group exists, or 404 as its own
 * page answers. The project must already be known to be the caller's.
 */
export async function requireGroup(ctx: Ctx, projectId: string, groupId: string): Promise<void> {
  if (!groupIdCanExist(groupId) || !(await groupExists(ctx.services.sql, { organizationId: ctx.organizationId, projectId, groupId }))) {
    throw new NotFound('Group');
  }
}
