import type { VerbArgs } from '../../context.ts';
import { findActiveSessionByHash } from './queries.ts';
import { hashFromSessionId } from './sessionToken.ts';

/** Long-lived streams ask this now and then, so a sign-out or expiry also ends them. */
export async function sessionIsActive({ ctx, input }: VerbArgs<{ sessionId: string }>): Promise<boolean> {
  return (await findActiveSessionByHash(ctx.services.sql, hashFromSessionId(input.sessionId))) !== undefined;
}
