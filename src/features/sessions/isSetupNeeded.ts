import type { InstallationCtx } from '../../context.ts';
import { hasAnyUser } from '../users/queries.ts';

/** GET /api/setup: first-run setup is offered while the installation has no user at all. */
export async function isSetupNeeded({ ctx }: { ctx: InstallationCtx; input?: undefined }): Promise<boolean> {
  return !(await hasAnyUser(ctx.services.sql));
}
