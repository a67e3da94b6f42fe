import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { requireProject } from '../projects/requireProject.ts';
import { listInsights as selectInsights } from './queries.ts';
import type { Insight } from './schemas.ts';

/** GET /api/insights (operations.md): the project's cards, oldest first. */
export async function listInsights({ ctx, input }: VerbArgs<{ project?: string }>): Promise<Static<typeof Insight>[]> {
  if (!input.project) throw new NotFound('Project');
  // An empty list must still tell "no insights" from "not your project".
  await requireProject(ctx, input.project);
  const rows = await selectInsights(ctx.services.sql, ctx.organizationId, input.project);
  return rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}
