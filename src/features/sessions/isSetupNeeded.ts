import type { InstallationCtx } from '../../context.ts';
import { anyAccountExists } from '../accounts/accountLookups.ts';

/** GET /api/setup: first-run setup is offered while the installation has no user at all. */
export async function isSetupNeeded({ ctx }: { ctx: InstallationCtx; input?: undefined }): Promise<boolean> {
  return !(await anyAccountExists(ctx.services.sql));
}
