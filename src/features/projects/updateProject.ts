import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { hasNul } from '../../lib/text.ts';
import { MAX_PROJECT_NAME } from './createProject.ts';
import { projectFromRow } from './projectObject.ts';
import { updateProject as writeProject } from './queries.ts';
import type { Project, UpdateProjectBody } from './schemas.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

const MAX_RETENTION_DAYS = 36500;

type Input = Static<typeof UpdateProjectBody> & { projectId: string };

/** PATCH /api/projects/:projectId: rename and/or set the retention period (null: keep forever). */
export async function updateProject({ ctx, input }: VerbArgs<Input>): Promise<Static<typeof Project>> {
  let name: string | undefined;
  if (input.name !== undefined) {
    name = input.name.trim();
    if (!name) throw new InvalidInput('name must not be empty');
    if ([...name].length > MAX_PROJECT_NAME || hasNul(name)) {
      throw new InvalidInput(`name must be at most ${MAX_PROJECT_NAME} characters of text`);
    }
  }
  const { retentionDays } = input;
  if (retentionDays !== undefined && retentionDays !== null) {
    if (!Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > MAX_RETENTION_DAYS) {
      throw new InvalidInput(`retentionDays must be null or an integer from 1 to ${MAX_RETENTION_DAYS}`);
    }
  }
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const updated = await writeProject(tx, { organizationId: ctx.organizationId, projectId: input.projectId, name, retentionDays });
    if (!updated) throw new NotFound('Project');
    await recordAudit(tx, ctx, { action: 'project.update', target: { type: 'project', id: updated.id } });
    return updated;
  });
  return projectFromRow(row);
}
