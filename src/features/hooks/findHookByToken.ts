import type { Services } from '../../context.ts';
import { HOOK_TOKEN_PATTERN, hashHookToken } from './hookToken.ts';
import { type ActiveHook, findEnabledHookByTokenHash } from './queries.ts';

/** The enabled hook a URL token belongs to, or null for a malformed, unknown, paused or deleted one. */
export async function findHookByToken({ services, input }: { services: Services; input: { token: string } }): Promise<ActiveHook | null> {
  // The shape is public knowledge; refusing a malformed token early reveals nothing about real ones.
  if (!HOOK_TOKEN_PATTERN.test(input.token)) return null;
  return (await findEnabledHookByTokenHash(services.sql, hashHookToken(input.token))) ?? null;
}
