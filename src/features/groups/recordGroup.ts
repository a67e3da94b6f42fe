import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { withTransaction } from '../../db/client.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { ensureUser } from '../profiles/ensureUser.ts';
import { requireProject } from '../projects/requireProject.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';
import { groupFromRow } from './groupObject.ts';
import { mergeGroupProperties, readPropertyUpdate, requireGroupId } from './groupInput.ts';
import { findGroup, insertMembership, lockGroupProperties, writeGroupProperties } from './queries.ts';
import type { GroupBody, GroupReply } from './schemas.ts';

/**
 * POST /api/group (and /v1/group, where `byName` lets `project` be a project's exact name): the
 * group is created when new, `properties` merged into its own, and `user_id` (created as identify
 * creates a user, when new) joins it. One transaction: a refused call changes nothing.
 */
export async function recordGroup({ ctx, input }: VerbArgs<Static<typeof GroupBody> & { byName?: boolean }>): Promise<Static<typeof GroupReply>> {
  if (typeof input.project !== 'string' || input.project === '') throw new InvalidInput('project is required');
  const groupId = requireGroupId(input.group_id);
  const update = readPropertyUpdate(input.properties);
  const hasUser = input.user_id !== undefined && input.user_id !== null;
  if (!hasUser && update === undefined) throw new InvalidInput('give user_id, properties or both');
  const projectId = input.byName ? await resolveProjectReference(ctx, input.project) : (await requireProject(ctx, input.project)).id;
  const key = { organizationId: ctx.organizationId, projectId, groupId };
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const stored = await lockGroupProperties(tx, key);
    if (update !== undefined) await writeGroupProperties(tx, key, JSON.stringify(mergeGroupProperties(stored, update)));
    if (hasUser) {
      const userId = await ensureUser({ ctx, input: { db: tx, projectId, userId: input.user_id } });
      await insertMembership(tx, { ...key, userId });
    }
    return findGroup(tx, key);
  });
  return { group: groupFromRow(row!) };
}
