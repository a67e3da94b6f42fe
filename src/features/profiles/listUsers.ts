import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { likePattern, pageSize } from '../events/listEvents.ts';
import { requireProject } from '../projects/requireProject.ts';
import { selectUsers } from './queries.ts';
import type { ListUsersQuery, UserPage } from './schemas.ts';
import { userFromRow } from './userObject.ts';

/** Opaque to clients: base64url of `[lastSeenMicros | null, userId]`; anything unreadable is the first page. */
function encodeCursor(lastSeenMicros: string | null, userId: string): string {
  return Buffer.from(JSON.stringify([lastSeenMicros, userId])).toString('base64url');
}

function decodeCursor(cursor: string | undefined): { lastSeenMicros: string | null; userId: string } | undefined {
  if (!cursor) return undefined;
  try {
    const [seen, userId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof userId !== 'string' || !(seen === null || (typeof seen === 'string' && /^-?\d{1,19}$/.test(seen)))) return undefined;
    return { lastSeenMicros: seen, userId };
  } catch {
    return undefined;
  }
}

export async function listUsers({ ctx, input }: VerbArgs<Static<typeof ListUsersQuery>>): Promise<Static<typeof UserPage>> {
  if (!input.project) throw new InvalidInput('project is required');
  await requireProject(ctx, input.project);
  const limit = pageSize(input.limit);
  const rows = await selectUsers(ctx.services.sql, {
    organizationId: ctx.organizationId,
    projectId: input.project,
    pattern: input.search ? likePattern(input.search) : undefined,
    after: decodeCursor(input.cursor),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    users: page.map(userFromRow),
    nextCursor: rows.length > limit && last ? encodeCursor(last.lastSeenMicros, last.userId) : null,
  };
}
