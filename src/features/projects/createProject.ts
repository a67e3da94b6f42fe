import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { hasNul } from '../../lib/text.ts';
import { insertProject } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

export const MAX_PROJECT_NAME = 200;

export async function createProject({ ctx, input }: VerbArgs<{ name: string }>): Promise<{ id: string; name: string }> {
  const name = input.name.trim();
  if (!name) throw new InvalidInput('name is required');
  if ([...name].length > MAX_PROJECT_NAME || hasNul(name)) {
    throw new InvalidInput(`name must be at most ${MAX_PROJECT_NAME} characters of text`);
  }
  const project = { id: newId(12), organizationId: ctx.organizationId, name };
  await withTransaction(ctx.services.sql, async (tx) => {
    await insertProject(tx, project);
    await recordAudit(tx, ctx, { action: 'project.create', target: { type: 'project', id: project.id } });
  });
  ctx.services.bus.announce({ type: 'project.created', organizationId: ctx.organizationId, projectId: project.id });
  return { id: project.id, name };
}
