import type { Ctx } from '../../context.ts';
import { listFiringAlerts } from './queries.ts';

/**
 * The organization's enabled alerts that are firing now, oldest firing first (the projects page
 * shows them). A muted alert is left out, as the dashboard's firing banner leaves it out: it still
 * fires (the Alerts tab says so), but whoever muted it asked not to be called to it.
 */
export function firingAlerts(ctx: Ctx): Promise<Array<{ projectId: string; id: string; name: string }>> {
  return listFiringAlerts(ctx.services.sql, ctx.organizationId, new Date());
}
