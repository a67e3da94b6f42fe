import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import { HOOK_TOKEN_PATTERN, hashHookToken } from './hookToken.ts';
import { type ActiveHook, findEnabledHookByTokenHash } from './queries.ts';

interface CacheEntry {
  hook: ActiveHook;
  expiresAt: number;
}

const CACHE_TTL_MS = 30_000;
const CACHE_LIMIT = 10_000;
/** Announced by the pause, resume and delete verbs (see setHookEnabled.ts, deleteHook.ts). */
const HOOK_CHANGED = new Set(['hook.updated', 'hook.deleted']);

/**
 * Resolves a hook URL's token to its enabled hook, as the API key cache does for keys: hits are
 * served from memory, a pause or delete evicts the hook in this process before the verb answers
 * and in every other process through the bus, and entries expire after 30 s in case an
 * announcement is lost. Only enabled hooks are cached; an unknown or paused token asks the
 * database every time, so guessing cannot fill the cache.
 */
export class HookResolver {
  private readonly cache = new Map<string, CacheEntry>();
  /** Bumped by every eviction: a lookup that started before one must not cache what it read. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly sql: Sql,
    bus: Bus,
  ) {
    this.unsubscribe = bus.subscribe((announcement) => {
      if (HOOK_CHANGED.has(announcement.type) && announcement.id !== undefined) this.evict(String(announcement.id));
    });
  }

  close(): void {
    this.unsubscribe();
  }

  /** The enabled hook a URL token belongs to, or null for a malformed, unknown, paused or deleted one. */
  async resolve(token: string): Promise<ActiveHook | null> {
    // The shape is public knowledge; refusing a malformed token early reveals nothing about real ones.
    if (!HOOK_TOKEN_PATTERN.test(token)) return null;
    const tokenHash = hashHookToken(token);
    const cacheKey = tokenHash.toString('base64');
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt > now) return cached.hook;
    const generation = this.generation;
    const hook = await findEnabledHookByTokenHash(this.sql, tokenHash);
    if (!hook) {
      this.cache.delete(cacheKey);
      return null;
    }
    if (generation === this.generation) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(cacheKey, { hook, expiresAt: now + CACHE_TTL_MS });
    }
    return hook;
  }

  /** Forgets a hook in this process; other processes hear of it through the bus. */
  evict(hookId: string): void {
    this.generation++;
    for (const [key, entry] of this.cache) if (entry.hook.id === hookId) this.cache.delete(key);
  }
}
