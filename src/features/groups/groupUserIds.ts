import type { Ctx } from '../../context.ts';
import { selectMemberIds } from './queries.ts';
import { requireGroup } from './requireGroup.ts';

/**
 * For the users list's `group` filter (profiles/): the ids of all the group's users, or 404 when
 * the project has no such group, as the feed's filter answers. Profiles never reads the
 * memberships itself: it filters its own rows by these ids (decision 224). The project must
 * already be known to be the caller's.
 */
export async function groupUserIds(ctx: Ctx, projectId: string, groupId: string): Promise<string[]> {
  await requireGroup(ctx, projectId, groupId);
  return selectMemberIds(ctx.services.sql, { organizationId: ctx.organizationId, projectId, groupId }, null);
}
