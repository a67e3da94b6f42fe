import type { Ctx } from '../../context.ts';
import { Forbidden } from '../../lib/errors.ts';

/**
 * For actions a leaked API key must not be able to take (minting or revoking keys): the caller
 * has to be a person signed in to the dashboard.
 */
export function requireDashboardSession(ctx: Ctx, message: string): void {
  if (ctx.actor.kind !== 'user') throw new Forbidden(message);
}
