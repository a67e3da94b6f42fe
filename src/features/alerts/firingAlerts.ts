import type { Ctx } from '../../context.ts';
import { listFiringAlerts } from './queries.ts';

/** The organization's enabled alerts that are firing now, oldest firing first (the projects page shows them). */
export function firingAlerts(ctx: Ctx): Promise<Array<{ projectId: string; id: string; name: string }>> {
  return listFiringAlerts(ctx.services.sql, ctx.organizationId);
}
