import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { requireProject } from '../projects/requireProject.ts';
import { groupFromRow } from './groupObject.ts';
import { groupIdCanExist } from './groupInput.ts';
import { findGroup, selectMemberIds } from './queries.ts';
import type { GroupDetail } from './schemas.ts';

/** How many of its users' ids a group's reply lists (extensions.md: at most 1,000). */
const MAX_LISTED_USERS = 1000;

/** GET /api/groups/:groupId: the group with its users' ids. */
export async function getGroup({ ctx, input }: VerbArgs<{ project?: string; groupId: string }>): Promise<Static<typeof GroupDetail>> {
  if (!input.project) throw new InvalidInput('project is required');
  await requireProject(ctx, input.project);
  if (!groupIdCanExist(input.groupId)) throw new NotFound('Group');
  const key = { organizationId: ctx.organizationId, projectId: input.project, groupId: input.groupId };
  const row = await findGroup(ctx.services.sql, key);
  if (!row) throw new NotFound('Group');
  return { group: { ...groupFromRow(row), userIds: await selectMemberIds(ctx.services.sql, key, MAX_LISTED_USERS) } };
}
