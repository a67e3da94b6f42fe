import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { getUser } from '../profiles/getUser.ts';
import { groupFromRow } from './groupObject.ts';
import { selectUserGroups } from './queries.ts';
import type { UserGroups } from './schemas.ts';

const MAX_LISTED_GROUPS = 1000;

/** GET /api/users/:userId/groups: the groups a user belongs to; an unknown user is 404 as on its own page. */
export async function listUserGroups({ ctx, input }: VerbArgs<{ project?: string; userId: string }>): Promise<Static<typeof UserGroups>> {
  if (!input.project) throw new InvalidInput('project is required');
  await getUser({ ctx, input });
  const rows = await selectUserGroups(ctx.services.sql, {
    organizationId: ctx.organizationId,
    projectId: input.project,
    userId: input.userId,
    limit: MAX_LISTED_GROUPS,
  });
  return { groups: rows.map(groupFromRow) };
}
