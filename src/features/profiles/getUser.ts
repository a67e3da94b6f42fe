import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { MAX_USER_ID } from '../../lib/limits.ts';
import { codePointLength } from '../../lib/text.ts';
import { requireProject } from '../projects/requireProject.ts';
import { findUser } from './queries.ts';
import type { AppUser } from './schemas.ts';
import { userFromRow } from './userObject.ts';

export async function getUser({ ctx, input }: VerbArgs<{ project?: string; userId: string }>): Promise<Static<typeof AppUser>> {
  if (!input.project) throw new InvalidInput('project is required');
  await requireProject(ctx, input.project);
  // An event may carry a longer user_id, but it makes no user (extensions.md, "Users").
  if (codePointLength(input.userId) > MAX_USER_ID) throw new NotFound('User');
  const row = await findUser(ctx.services.sql, { organizationId: ctx.organizationId, projectId: input.project, userId: input.userId });
  if (!row) throw new NotFound('User');
  return userFromRow(row);
}
