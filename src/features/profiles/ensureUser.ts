import type { VerbArgs } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { insertUserIfNew } from './queries.ts';
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
