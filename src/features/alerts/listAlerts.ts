import type { VerbArgs } from '../../context.ts';
import { requireProject } from '../projects/requireProject.ts';
import { type AlertObject, alertFromRow } from './alertObject.ts';
import { listAlerts as selectAlerts } from './queries.ts';

/** GET /api/projects/:projectId/alerts: oldest first. */
export async function listAlerts({ ctx, input }: VerbArgs<{ projectId: string }>): Promise<AlertObject[]> {
  await requireProject(ctx, input.projectId);
  return (await selectAlerts(ctx.services.sql, ctx.organizationId, input.projectId)).map(alertFromRow);
}
