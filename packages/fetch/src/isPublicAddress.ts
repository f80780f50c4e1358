import { IPV4_RANGES, IPV6_GLOBAL_UNICAST, IPV6_RANGES, inRange } from './addressRanges.js';
import { formatIPv4, parseIpAddress } from './parseIpAddress.js';

/** Verdict on one IP address: public, or why not (`range` is the CIDR block it falls in). */
export type AddressVerdict =
  | { public: true }
  | { public: false; reason: string; range?: string };

/**
 * Classifies an IP address against the address policy: only public unicast addresses pass.
 * Host names and malformed text are not public.
 */
export function checkAddress(ip: string): AddressVerdict {
  const parsed = parseIpAddress(ip);
  if (parsed === undefined) return { public: false, reason: 'not an IP address' };
  if (parsed.scoped) return { public: false, reason: 'a scoped (zone index) address' };
  const ranges = parsed.family === 4 ? IPV4_RANGES : IPV6_RANGES;
  const match = ranges.find((candidate) => inRange(parsed.bytes, candidate));
  if (match?.embeddedOffset !== undefined) {
    const embedded = formatIPv4(parsed.bytes.subarray(match.embeddedOffset, match.embeddedOffset + 4));
    const inner = checkAddress(embedded);
    if (inner.public) return inner;
    const innerRange = inner.range === undefined ? '' : ` (${inner.range})`;
    return { public: false, reason: `${match.kind} embedding ${inner.reason}${innerRange}`, range: match.cidr };
  }
  if (match !== undefined) return { public: false, reason: match.kind, range: match.cidr };
  if (parsed.family === 6 && !inRange(parsed.bytes, IPV6_GLOBAL_UNICAST)) {
    return { public: false, reason: 'an address outside global unicast space', range: '2000::/3' };
  }
  return { public: true };
}

/** True when `ip` is a public unicast IPv4 or IPv6 address (see the address policy in the README). */
export function isPublicAddress(ip: string): boolean {
  return checkAddress(ip).public;
}

