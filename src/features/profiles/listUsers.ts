import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { microsToIso } from '../../lib/time.ts';
import { likePattern, pageSize } from '../events/listEvents.ts';
import { groupUserIds } from '../groups/groupUserIds.ts';
import { requireProject } from '../projects/requireProject.ts';
import { type AppUserRow, selectUsers } from './queries.ts';
import type { ListUsersQuery, UserPage } from './schemas.ts';
import { userFromRow } from './userObject.ts';
import { type UserSort, decodeUserCursor, encodeUserCursor } from './userOrder.ts';

export async function listUsers({ ctx, input }: VerbArgs<Static<typeof ListUsersQuery>>): Promise<Static<typeof UserPage>> {
  if (!input.project) throw new InvalidInput('project is required');
  await requireProject(ctx, input.project);
  const limit = pageSize(input.limit);
  const sort: UserSort = input.sort ?? 'lastSeen';
  if (input.group === '') throw new InvalidInput('group must not be empty');
  // A group's users, as the groups feature lists them (an unknown group is 404, as in the feed).
  const userIds = input.group === undefined ? undefined : await groupUserIds(ctx, input.project, input.group);
  if (userIds?.length === 0) return { users: [], nextCursor: null };
  const rows = await selectUsers(ctx.services.sql, {
    organizationId: ctx.organizationId,
    projectId: input.project,
    sort,
    pattern: input.search ? likePattern(input.search) : undefined,
    userIds,
    after: decodeUserCursor(input.cursor, sort),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    users: page.map((row) =>
      sort === 'lastActive' ? { ...userFromRow(row), lastActive: row.lastActiveMicros === null ? null : microsToIso(row.lastActiveMicros) } : userFromRow(row),
    ),
    nextCursor: rows.length > limit && last ? encodeUserCursor({ sort, key: sortKey(sort, last), userId: last.userId }) : null,
  };
}

/** A row's key in the list's order, as its cursor keeps it. */
function sortKey(sort: UserSort, row: AppUserRow & { eventCountKey: string }): string | null {
  if (sort === 'events') return row.eventCountKey;
  if (sort === 'lastActive') return row.lastActiveMicros;
  return sort === 'firstSeen' ? row.firstSeenMicros : row.lastSeenMicros;
}
