import type { Bus } from '../../db/bus.ts';
import type { Sql } from '../../db/client.ts';
import { EvictingCache } from '../../lib/evictingCache.ts';
import { sha256 } from '../../lib/ids.ts';
import { clientAddressKey } from '../../lib/clientAddressKey.ts';
import { API_KEY_PATTERN } from './keyFormat.ts';
import { countBrowserEvent, findActiveKeyByHash, stampLastUsed } from './queries.ts';
import { KEY_REVOKED } from '../../db/announcements.ts';
import type { KeyPrincipal } from '../../ports.ts';

const STAMP_INTERVAL_MS = 60_000;
/** extensions.md, "Keys for browsers": at most 60 events a minute per client address. */
const BROWSER_EVENTS_PER_WINDOW = 60;
const BROWSER_WINDOW_MS = 60_000;
const REVOKED = new Set([KEY_REVOKED]);

/**
 * Resolves a bearer key to its organization. Hits are served from memory: a revocation is
 * announced on the bus and evicts the key in every process at once, and entries expire after
 * 30 s in case an announcement is lost (EvictingCache). A miss costs two reads: the key's routing
 * row, then the key within its organization. last_used_at is written at most once a minute per
 * key, off the request path, so that authentication never costs a write per request.
 */
export class KeyAuthenticator {
  private readonly cache: EvictingCache<KeyPrincipal>;
  private readonly lastStamped = new Map<string, number>();

  constructor(
    private readonly sql: Sql,
    bus: Bus,
    private readonly logError: (error: unknown, message: string) => void,
  ) {
    this.cache = new EvictingCache(bus.evictionFeed(REVOKED), { idOf: (principal) => principal.keyId });
  }

  close(): void {
    this.cache.close();
  }

  async authenticate(plaintext: string): Promise<KeyPrincipal | null> {
    if (!API_KEY_PATTERN.test(plaintext)) return null;
    const hash = sha256(plaintext);
    const principal = await this.cache.get(hash.toString('base64'), async () => {
      const row = await findActiveKeyByHash(this.sql, hash);
      return row && { keyId: row.id, organizationId: row.organizationId, access: row.access, projects: row.projects, origins: row.origins };
    });
    if (!principal) return null;
    this.stamp(principal, Date.now());
    return { ...principal };
  }

  /**
   * `events` events (a batch's items; 1 by default) of a browser key from `address` (an IPv6
   * client counted by its /64): null while they fit under the limit, else seconds to wait.
   */
  async takeBrowserEvent(organizationId: string, address: string, events = 1): Promise<number | null> {
    const now = Date.now();
    const windowStart = now - (now % BROWSER_WINDOW_MS);
    const fits = events <= BROWSER_EVENTS_PER_WINDOW;
    const counted = fits
      ? await countBrowserEvent(this.sql, {
          organizationId,
          address: clientAddressKey(address),
          windowStart: new Date(windowStart),
          limit: BROWSER_EVENTS_PER_WINDOW,
          events,
        })
      : null;
    return counted === null ? Math.max(1, Math.ceil((windowStart + BROWSER_WINDOW_MS - now) / 1000)) : null;
  }

  /** Drops a key from this process's cache; other processes hear of it through the bus. */
  evict(keyId: string): void {
    this.cache.evict(keyId);
  }

  private stamp({ keyId, organizationId }: KeyPrincipal, now: number): void {
    if (now - (this.lastStamped.get(keyId) ?? 0) < STAMP_INTERVAL_MS) return;
    this.lastStamped.set(keyId, now);
    stampLastUsed(this.sql, organizationId, keyId).catch((error: unknown) => this.logError(error, 'stamping last_used_at failed'));
  }
}
