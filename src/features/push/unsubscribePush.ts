import type { VerbArgs } from '../../context.ts';
import { deleteSubscriptionsByEndpoint } from './queries.ts';

/** Forgets a browser for every project of the organization; an unknown endpoint is fine too. */
export async function unsubscribePush({ ctx, input }: VerbArgs<{ endpoint: string }>): Promise<{ ok: true }> {
  await deleteSubscriptionsByEndpoint(ctx.services.sql, ctx.organizationId, input.endpoint);
  return { ok: true };
}
