import { clientAddressKey } from '../../lib/clientAddressKey.ts';

interface Window {
  count: number;
  resetAt: number;
}

interface ThrottleOptions {
  limit?: number;
  windowMs?: number;
  /** Bounds memory under a flood of distinct addresses or emails. */
  maxEntries?: number;
}

/**
 * Counts sign-in failures per client address and per email in this process: `limit` failures
 * within `windowMs` block that address or email until the window ends. An attempt is counted
 * before its password is checked and refunded when it succeeds, so a burst of parallel guesses
 * cannot slip past the limit while the hashes are being computed. In-process by design (no extra
 * store): with several server processes each keeps its own count (docs/decisions/020-dashboard-sessions.md).
 */
export class SignInThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxEntries: number;

  constructor({ limit = 10, windowMs = 15 * 60_000, maxEntries = 50_000 }: ThrottleOptions = {}) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.maxEntries = maxEntries;
  }

  static keys(ip: string, email: string): { ip: string; email: string } {
    return { ip: SignInThrottle.addressKey(ip), email: `email:${email.trim().toLowerCase()}` };
  }

  /** A client address's key: an IPv6 client counts by its /64 (lib/clientAddressKey.ts). */
  static addressKey(ip: string): string {
    return `ip:${clientAddressKey(ip)}`;
  }

  /** False when either key is blocked; otherwise counts the attempt as a failure until refunded. */
  tryAttempt(keys: { ip: string; email: string }, now = Date.now()): boolean {
    const ip = this.current(keys.ip, now);
    const email = this.current(keys.email, now);
    if (ip.count >= this.limit || email.count >= this.limit) return false;
    ip.count += 1;
    email.count += 1;
    return true;
  }

  /** Whole seconds until neither key is blocked any more; 0 when neither is. For Retry-After. */
  blockedForSeconds(keys: { ip: string; email: string }, now = Date.now()): number {
    let until = now;
    for (const key of [keys.ip, keys.email]) {
      const window = this.windows.get(key);
      if (window && window.resetAt > now && window.count >= this.limit) until = Math.max(until, window.resetAt);
    }
    return Math.ceil((until - now) / 1000);
  }

  /** A correct password: the address gets its attempt back and the email starts afresh. */
  succeeded(keys: { ip: string; email: string }): void {
    const ip = this.windows.get(keys.ip);
    if (ip && ip.count > 0) ip.count -= 1;
    this.windows.delete(keys.email);
  }

  private current(key: string, now: number): Window {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (window) this.windows.delete(key);
      if (this.windows.size >= this.maxEntries) this.prune(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    return window;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Still full of live windows: drop the oldest (a Map iterates in insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxEntries) break;
      this.windows.delete(key);
    }
  }
}
