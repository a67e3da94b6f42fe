import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { requireProject } from '../projects/requireProject.ts';
import { checkFilter } from './checkAlertInput.ts';
import { countWindow } from './engineQueries.ts';
import type { FilterPreviewBody } from './schemas.ts';

/** How many events a filter matches in the last `windowSeconds`, now: the form's preview. */
export async function previewFilter({ ctx, input }: VerbArgs<Static<typeof FilterPreviewBody> & { projectId: string }>): Promise<{ count: number }> {
  await requireProject(ctx, input.projectId);
  const now = new Date();
  const from = new Date(now.getTime() - input.windowSeconds * 1000);
  const { count } = await countWindow(ctx.services.sql, ctx.organizationId, { projectId: input.projectId, filter: checkFilter(input.filter) }, { from, now });
  return { count };
}
