import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import { EvictingCache } from '../../lib/evictingCache.ts';
import { HOOK_TOKEN_PATTERN, hashHookToken } from './hookToken.ts';
import type { ActiveHook } from '../../ports.ts';
import { findEnabledHookByTokenHash } from './queries.ts';

/** Announced by the pause, resume and delete verbs (see setHookEnabled.ts, deleteHook.ts). */
const HOOK_CHANGED = new Set(['hook.updated', 'hook.deleted']);

/**
 * Resolves a hook URL's token to its enabled hook, as the API key cache does for keys: only
 * enabled hooks are cached, so an unknown or paused token asks the database every time.
 */
export class HookResolver {
  private readonly cache: EvictingCache<ActiveHook>;

  constructor(
    private readonly sql: Sql,
    bus: Bus,
  ) {
    this.cache = new EvictingCache(bus.evictionFeed(HOOK_CHANGED), { idOf: (hook) => hook.id });
  }

  close(): void {
    this.cache.close();
  }

  /** The enabled hook a URL token belongs to, or null for a malformed, unknown, paused or deleted one. */
  async resolve(token: string): Promise<ActiveHook | null> {
    // The shape is public knowledge; refusing a malformed token early reveals nothing about real ones.
    if (!HOOK_TOKEN_PATTERN.test(token)) return null;
    const tokenHash = hashHookToken(token);
    return this.cache.get(tokenHash.toString('base64'), () => findEnabledHookByTokenHash(this.sql, tokenHash));
  }

  /** Forgets a hook in this process; other processes hear of it through the bus. */
  evict(hookId: string): void {
    this.cache.evict(hookId);
  }
}
