import type { KeyPrincipal } from '../../ports.ts';

/**
 * An increment's reply for the key that asked: a browser key (published in web pages, so anyone's)
 * may add to a counter but not read it, so it is told only that its increment counted (decision 200).
 */
export function withoutValueForBrowsers(key: KeyPrincipal | null, reply: { ok: true; value: string }): { ok: true; value?: string } {
  return key?.origins ? { ok: true } : reply;
}
