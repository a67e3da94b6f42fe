import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { likePattern, pageSize } from '../events/listEvents.ts';
import { requireProject } from '../projects/requireProject.ts';
import { groupFromRow } from './groupObject.ts';
import { type GroupSort, decodeGroupCursor, encodeGroupCursor } from './groupOrder.ts';
import { type GroupRow, selectGroups } from './queries.ts';
import type { GroupPage, ListGroupsQuery } from './schemas.ts';

/** GET /api/groups: a page of the project's groups, newest last seen first unless `sort` says otherwise. */
export async function listGroups({ ctx, input }: VerbArgs<Static<typeof ListGroupsQuery>>): Promise<Static<typeof GroupPage>> {
  if (!input.project) throw new InvalidInput('project is required');
  await requireProject(ctx, input.project);
  const limit = pageSize(input.limit);
  const sort: GroupSort = input.sort ?? 'lastSeen';
  const rows = await selectGroups(ctx.services.sql, {
    organizationId: ctx.organizationId,
    projectId: input.project,
    sort,
    pattern: input.search ? likePattern(input.search) : undefined,
    after: decodeGroupCursor(input.cursor, sort),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    groups: page.map(groupFromRow),
    nextCursor: rows.length > limit && last ? encodeGroupCursor({ sort, key: sortKey(sort, last), groupId: last.groupId }) : null,
  };
}

/** A row's key in the list's order, as its cursor keeps it. */
function sortKey(sort: GroupSort, row: GroupRow & { nameKey: string }): string | null {
  if (sort === 'users') return String(row.users);
  return sort === 'name' ? row.nameKey : row.lastSeenMicros;
}
