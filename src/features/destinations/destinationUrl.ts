import type { Mail } from '../../ports.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { hasNul } from '../../lib/text.ts';
import { refuseIpLiteral } from '../../lib/outboundHttp/addressGuard.ts';
import type { DeliveryFormat } from '../delivery/formats.ts';
import { requireEmail } from '../email/requireEmail.ts';
import { validEmail } from '../accounts/createAccount.ts';
import { CHANNELS, isChannelFormat } from '../delivery/channels/index.ts';

const MAX_URL_LENGTH = 2048;
/** extensions.md, "Email": `mailto:` and 1-10 comma-separated addresses. */
const MAX_RECIPIENTS = 10;

/**
 * A destination URL as saved: http(s) only, and, unless private targets are allowed, not an IP
 * literal in a refused range. A hostname is checked again on every attempt, on the addresses it
 * resolves to then; here it can only be refused when it is an address already.
 */
function checkDestinationUrl(raw: string, allowPrivate: boolean): string {
  const text = raw.trim();
  if (!text) throw new InvalidInput('url is required');
  if (text.length > MAX_URL_LENGTH || hasNul(text)) throw new InvalidInput(`url must be at most ${MAX_URL_LENGTH} characters`);
  if (isMailto(text)) throw new InvalidInput('a mailto: url needs the format "email"');
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

function isMailto(url: string): boolean {
  return /^mailto:/i.test(url.trim());
}

/** The addresses of a `mailto:` URL, each checked; 400 unless there are 1 to 10. */
function mailtoRecipients(raw: string): string[] {
  const text = raw.trim();
  if (!isMailto(text)) throw new InvalidInput("an email destination's url must start with mailto:");
  if (text.length > MAX_URL_LENGTH || hasNul(text)) throw new InvalidInput(`url must be at most ${MAX_URL_LENGTH} characters`);
  const list = text.slice('mailto:'.length);
  if (list.includes('?')) throw new InvalidInput('a mailto: url takes addresses only (no ?subject= or other fields)');
  let decoded: string;
  try {
    decoded = decodeURIComponent(list);
  } catch {
    throw new InvalidInput('the mailto: url is not valid percent-encoding');
  }
  const addresses = decoded.split(',').map((address) => address.trim());
  if (addresses.length > MAX_RECIPIENTS) throw new InvalidInput(`a mailto: url takes at most ${MAX_RECIPIENTS} addresses`);
  if (addresses.some((address) => address === '')) throw new InvalidInput('a mailto: url needs 1 to 10 comma-separated addresses');
  for (const address of addresses) {
    if (/[<>()\s"]/.test(address)) throw new InvalidInput(`${JSON.stringify(address)} is not a valid email address`);
    validEmail(address);
  }
  return addresses;
}

/**
 * The format a URL takes and the URL as saved: a `mailto:` URL is an email destination (format
 * "email", given or left out; 400 without email configured), any other URL a webhook with the
 * format given. "email" with a web URL, or a webhook format with `mailto:`, is 400.
 */
export function checkDestinationTarget(
  raw: string,
  format: DeliveryFormat | undefined,
  services: { mailer: Mail; allowPrivate: boolean },
): { url: string; format: DeliveryFormat } {
  if (isMailto(raw)) {
    if (format !== undefined && format !== 'email') throw new InvalidInput(`a mailto: url needs the format "email", not ${JSON.stringify(format)}`);
    mailtoRecipients(raw);
    requireEmail(services.mailer);
    return { url: raw.trim(), format: 'email' };
  }
  if (format === 'email') throw new InvalidInput('the format "email" needs a mailto: url');
  if (format === undefined) throw new InvalidInput('format is required: json, text or embed (or "email" with a mailto: url)');
  const url = checkDestinationUrl(raw, services.allowPrivate);
  if (isChannelFormat(format)) {
    const refused = CHANNELS[format].checkUrl(new URL(url), { allowPrivate: services.allowPrivate });
    if (refused) throw new InvalidInput(refused);
  }
  return { url, format };
}
