import ipaddr from 'ipaddr.js';

/**
 * The key a per-address limit counts a client under (decision 200): an IPv4 address as it is, an
 * IPv4-mapped IPv6 address as the IPv4 address it carries, and any other IPv6 address by its /64
 * prefix (`2001:db8:1:2::/64`), since one subscriber is usually handed a whole /64 and could
 * otherwise take a fresh address, and a fresh limit, for every request. Anything unparsable is
 * counted as written.
 */
export function clientAddressKey(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/%.*$/, ''));
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
