import type { Services } from '../../context.ts';
import { hasAnyUser } from '../users/queries.ts';

/** GET /api/setup: first-run setup is offered while the installation has no user at all. */
export async function isSetupNeeded({ services }: { services: Services }): Promise<boolean> {
  return !(await hasAnyUser(services.sql));
}
