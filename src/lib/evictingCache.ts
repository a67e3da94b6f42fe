/**
 * Where a cache hears of changes made anywhere (the bus, in the server: db/bus.ts). Each
 * subscription returns its unsubscribe.
 */
export interface EvictionFeed {
  /** Calls `listener` with the id of a value that changed (a revoked key, a paused hook). */
  onEvict(listener: (id: string) => void): () => void;
  /** Calls `listener` when changes may have gone unheard: every cached value must go. */
  onReset(listener: () => void): () => void;
}

interface EvictingCacheOptions<T> {
  /** The id the feed's evictions use for a cached value. */
  idOf: (value: T) => string;
  ttlMs?: number;
  limit?: number;
}

/**
 * Credential → row, in memory, for the lookups made on every request (API keys, hook URL
 * tokens). Only rows found are cached, so guessing cannot fill it. A change is announced on the
 * bus, whose eviction feed drops the row in every process (the process that made it evicts it
 * before answering); entries expire after 30 s in case an announcement is lost. A lookup that
 * started before an eviction does not cache what it read, so a revoked or paused row cannot
 * return for a whole TTL.
 */
export class EvictingCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  /** Bumped by every eviction. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly limit: number;
  private readonly unsubscribeEvict: () => void;
  private readonly unsubscribeReset: () => void;

  constructor(
    feed: EvictionFeed,
    private readonly options: EvictingCacheOptions<T>,
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.limit = options.limit ?? 10_000;
    this.unsubscribeEvict = feed.onEvict((id) => this.evict(id));
    this.unsubscribeReset = feed.onReset(() => this.clear());
  }

  close(): void {
    this.unsubscribeEvict();
    this.unsubscribeReset();
  }

  /** Drops every value: the next lookup of each reads the database again. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The value cached under `key`, else what `load` finds (and caches), else null. */
  async get(key: string, load: () => Promise<T | undefined>): Promise<T | null> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.value;
    const generation = this.generation;
    const value = await load();
    if (value === undefined) {
      this.entries.delete(key);
      return null;
    }
    if (generation === this.generation) {
      if (this.entries.size >= this.limit) this.entries.clear();
      this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    }
    return value;
  }

  /** Drops a value in this process; other processes hear of it through their feed. */
  evict(id: string): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (this.options.idOf(entry.value) === id) this.entries.delete(key);
  }
}
