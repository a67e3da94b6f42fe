import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import { sha256 } from '../../lib/ids.ts';
import { API_KEY_PATTERN } from './keyFormat.ts';
import { findActiveKeyByHash, stampLastUsed } from './queries.ts';
import { KEY_REVOKED } from './revokeKey.ts';

export interface KeyPrincipal {
  keyId: string;
  organizationId: string;
}

interface CacheEntry extends KeyPrincipal {
  expiresAt: number;
}

const CACHE_TTL_MS = 30_000;
const STAMP_INTERVAL_MS = 60_000;
const CACHE_LIMIT = 10_000;

/**
 * Resolves a bearer key to its organization. Hits are served from memory: a revocation is
 * announced on the bus and evicts the key in every process at once, and entries expire after
 * 30 s in case an announcement is lost. last_used_at is written at most once a minute per key,
 * in one batched statement, so that authentication never costs a write per request.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly lastStamped = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly sql: Sql,
    bus: Bus,
    private readonly logError: (error: unknown, message: string) => void,
  ) {
    this.unsubscribe = bus.subscribe((announcement) => {
      if (announcement.type === KEY_REVOKED) this.evict(String(announcement.id));
    });
  }

  close(): void {
    this.unsubscribe();
  }

  async authenticate(plaintext: string): Promise<KeyPrincipal | null> {
    if (!API_KEY_PATTERN.test(plaintext)) return null;
    const hash = sha256(plaintext).toString('base64');
    const now = Date.now();
    let entry = this.cache.get(hash);
    if (!entry || entry.expiresAt <= now) {
      const row = await findActiveKeyByHash(this.sql, sha256(plaintext));
      if (!row) {
        this.cache.delete(hash);
        return null;
      }
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      entry = { keyId: row.id, organizationId: row.organizationId, expiresAt: now + CACHE_TTL_MS };
      this.cache.set(hash, entry);
    }
    this.stamp(entry.keyId, now);
    return { keyId: entry.keyId, organizationId: entry.organizationId };
  }

  /** Drops a key from this process's cache; other processes hear of it through the bus. */
  evict(keyId: string): void {
    for (const [hash, entry] of this.cache) if (entry.keyId === keyId) this.cache.delete(hash);
  }

  private stamp(keyId: string, now: number): void {
    if (now - (this.lastStamped.get(keyId) ?? 0) < STAMP_INTERVAL_MS) return;
    this.lastStamped.set(keyId, now);
    stampLastUsed(this.sql, [keyId]).catch((error: unknown) => this.logError(error, 'stamping last_used_at failed'));
  }
}
