import type { Services } from '../../context.ts';
import { findActiveSessionByHash } from './queries.ts';
import { hashFromSessionId } from './sessionToken.ts';

/** Long-lived streams ask this now and then, so a sign-out or expiry also ends them. */
export async function sessionIsActive({ services, sessionId }: { services: Services; sessionId: string }): Promise<boolean> {
  return (await findActiveSessionByHash(services.sql, hashFromSessionId(sessionId))) !== undefined;
}
