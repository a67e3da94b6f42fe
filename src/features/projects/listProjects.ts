import type { Static } from '@sinclair/typebox';
import { type VerbArgs, maySee } from '../../context.ts';
import { projectFromRow } from './projectObject.ts';
import { listProjects as selectProjects } from './queries.ts';
import type { Project } from './schemas.ts';

export async function listProjects({ ctx }: VerbArgs<void>): Promise<Static<typeof Project>[]> {
  const rows = await selectProjects(ctx.services.sql, ctx.organizationId);
  // A key limited to some projects lists those only (extensions.md, "Scoped API keys").
  return rows.filter((row) => maySee(ctx, row.id)).map(projectFromRow);
}
