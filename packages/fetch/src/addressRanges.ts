import { parseIpAddress } from './parseIpAddress.js';

/**
 * What to do with an address inside a special-purpose range: reject it, or (for the
 * translation prefixes 6to4 and NAT64) judge the IPv4 address embedded at `embeddedOffset`.
 */
export interface AddressRange {
  readonly cidr: string;
  readonly family: 4 | 6;
  readonly prefix: Uint8Array;
  readonly bits: number;
  /** Why the range is not public, with its article: `a private address`. */
  readonly kind: string;
  /** Byte offset of an embedded IPv4 address that decides instead of the range itself. */
  readonly embeddedOffset?: number;
}

function range(cidr: string, kind: string, embeddedOffset?: number): AddressRange {
  const [address = '', bits = ''] = cidr.split('/');
  const parsed = parseIpAddress(address);
  if (parsed === undefined) throw new Error(`bad range ${cidr}`);
  return { cidr, family: parsed.family, prefix: parsed.bytes, bits: Number(bits), kind, embeddedOffset };
}

// Sources: IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and updates).
// The first matching range wins, so narrower ranges come before the ones that contain them.
export const IPV4_RANGES: readonly AddressRange[] = [
  range('0.0.0.0/8', 'an unspecified ("this network") address'),
  range('10.0.0.0/8', 'a private address'),
  range('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  range('127.0.0.0/8', 'a loopback address'),
  range('169.254.0.0/16', 'a link-local address'),
  range('172.16.0.0/12', 'a private address'),
  range('192.0.0.0/24', 'an IETF protocol assignment address'),
  range('192.0.2.0/24', 'a documentation (TEST-NET-1) address'),
  range('192.88.99.0/24', 'a 6to4 relay anycast address'),
  range('192.168.0.0/16', 'a private address'),
  range('198.18.0.0/15', 'a benchmarking address'),
  range('198.51.100.0/24', 'a documentation (TEST-NET-2) address'),
  range('203.0.113.0/24', 'a documentation (TEST-NET-3) address'),
  range('224.0.0.0/4', 'a multicast address'),
  range('255.255.255.255/32', 'a broadcast address'),
  range('240.0.0.0/4', 'a reserved address'),
];

export const IPV6_RANGES: readonly AddressRange[] = [
  range('::/128', 'an unspecified address'),
  range('::1/128', 'a loopback address'),
  range('::ffff:0:0/96', 'an IPv4-mapped address'),
  range('::/96', 'an IPv4-compatible address'),
  range('64:ff9b::/96', 'a NAT64 address', 12),
  range('64:ff9b:1::/48', 'a local-use NAT64 address'),
  range('100::/64', 'a discard-only address'),
  range('2001::/32', 'a Teredo address'),
  range('2001::/23', 'an IETF protocol assignment address'),
  range('2001:db8::/32', 'a documentation address'),
  range('2002::/16', 'a 6to4 address', 2),
  range('3fff::/20', 'a documentation address'),
  range('5f00::/16', 'a segment routing (SRv6) address'),
  range('fc00::/7', 'a unique local (private) address'),
  range('fe80::/10', 'a link-local address'),
  range('fec0::/10', 'a site-local address'),
  range('ff00::/8', 'a multicast address'),
];

/** Global unicast space; any IPv6 address outside it is not public. */
export const IPV6_GLOBAL_UNICAST: AddressRange = range('2000::/3', 'a global unicast address');

/** True when the first `range.bits` bits of `bytes` equal the range prefix. */
export function inRange(bytes: Uint8Array, range: AddressRange): boolean {
  const whole = range.bits >> 3;
  for (let index = 0; index < whole; index += 1) {
    if (bytes[index] !== range.prefix[index]) return false;
  }
  const rest = range.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] ?? 0) & mask) === ((range.prefix[whole] ?? 0) & mask);
}
