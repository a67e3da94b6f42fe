import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** What each refused range is called in a message a person reads. */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
};

const ALLOW_HINT = 'set ALLOW_PRIVATE_WEBHOOK_URLS=1 to allow it';

/**
 * Why connecting to this IP address is refused, or null for a public unicast address. Only the
 * global unicast range passes: IPv4-mapped IPv6 addresses are judged as the IPv4 address they
 * carry, and the translation ranges (NAT64, 6to4, Teredo) are refused because they can lead back
 * to a private network.
 */
export function refusedAddressReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return 'not an IP address';
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  return RANGE_NAMES[range] ?? `a non-public address (${range})`;
}

/** A connection the guard stopped. Not retried: the same address would be refused again. */
export class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
  constructor(address: string, reason: string) {
    super(`Refused to connect to ${address}: it is ${reason} (${ALLOW_HINT})`);
    this.name = 'AddressRefused';
  }
}

/** The hostname of a URL without the brackets of an IPv6 literal. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The refusal for a URL whose host is an IP literal (which never reaches a DNS lookup), if any. */
export function refuseIpLiteral(url: URL): AddressRefused | null {
  const host = bareHost(url);
  if (!net.isIP(host)) return null;
  const reason = refusedAddressReason(host);
  return reason ? new AddressRefused(host, reason) : null;
}

/**
 * A `lookup` for http(s).request and https.Agent: resolves as usual, then refuses unless every
 * address is public. Checking here, on the addresses the socket is about to use, is what stops a
 * name that resolves (or is re-pointed after saving) to an internal address.
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    for (const { address } of addresses) {
      const reason = refusedAddressReason(address);
      if (reason) {
        callback(new AddressRefused(address, reason), '', 0);
        return;
      }
    }
    if (options.all) callback(null, addresses);
    else if (addresses[0]) callback(null, addresses[0].address, addresses[0].family);
    else callback(Object.assign(new Error(`Could not resolve ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
  });
};
