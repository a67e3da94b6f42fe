import { InvalidInput } from '../../lib/errors.ts';
import { hasNul } from '../../lib/text.ts';
import { refuseIpLiteral } from '../../lib/outboundHttp/addressGuard.ts';

const MAX_URL_LENGTH = 2048;

/**
 * A destination URL as saved: http(s) only, and, unless private targets are allowed, not an IP
 * literal in a refused range. A hostname is checked again on every attempt, on the addresses it
 * resolves to then; here it can only be refused when it is an address already.
 */
export function checkDestinationUrl(raw: string, allowPrivate: boolean): string {
  const text = raw.trim();
  if (!text) throw new InvalidInput('url is required');
  if (text.length > MAX_URL_LENGTH || hasNul(text)) throw new InvalidInput(`url must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidInput('url is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidInput('url must start with http:// or https://');
  if (!url.hostname) throw new InvalidInput('url has no host');
  if (!allowPrivate) {
    const refused = refuseIpLiteral(url);
    if (refused) throw new InvalidInput(refused.message);
  }
  return text;
}
