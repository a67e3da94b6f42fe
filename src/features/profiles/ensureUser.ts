import type { VerbArgs } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { insertUserIfNew, insertUsersIfNew } from './queries.ts';
import { requireUserId } from './userInput.ts';

/**
 * The project's user of this id, created as `identify` creates one when new (seen now, no
 * properties); an existing user is not touched. For features that attach things to a user
 * (groups): `db` is their transaction. The project must already be
 * known to be the caller's.
 */
export async function ensureUser({ ctx, input }: VerbArgs<{ db: Db; projectId: string; userId: unknown }>): Promise<string> {
  const userId = requireUserId(input.userId);
  await insertUserIfNew(input.db, { organizationId: ctx.organizationId, projectId: input.projectId, userId });
  return userId;
}

/** ensureUser for many ids already checked (an import's group memberships), in one statement. */
export async function ensureUsers({ ctx, input }: VerbArgs<{ db: Db; projectId: string; userIds: string[] }>): Promise<void> {
  await insertUsersIfNew(input.db, { organizationId: ctx.organizationId, projectId: input.projectId, userIds: input.userIds });
}
