import type { VerbArgs } from '../../context.ts';
import { findAlert } from './queries.ts';

/** The project of an alert the path names, for a key limited to some projects (http/routeScope.ts). */
export async function alertProject({ ctx, input }: VerbArgs<{ alertId?: string }>): Promise<string | undefined> {
  return (await findAlert(ctx.services.sql, ctx.organizationId, input.alertId ?? ''))?.projectId;
}
