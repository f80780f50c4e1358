import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as bytes in network order: 4 for IPv4, 16 for IPv6. */
export interface ParsedIpAddress {
  family: 4 | 6;
  bytes: Uint8Array;
  /** True when an IPv6 zone index (`fe80::1%eth0`) was present. */
  scoped: boolean;
}

/**
 * Parses a textual IPv4 (dotted decimal) or IPv6 address, with or without brackets.
 * Returns undefined for anything else, host names included.
 */
export function parseIpAddress(text: string): ParsedIpAddress | undefined {
  let value = text;
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  if (isIPv4(value)) return { family: 4, bytes: parseIPv4(value), scoped: false };
  if (!isIPv6(value)) return undefined;
  const zone = value.indexOf('%');
  const scoped = zone !== -1;
  return { family: 6, bytes: parseIPv6(scoped ? value.slice(0, zone) : value), scoped };
}

function parseIPv4(value: string): Uint8Array {
  return Uint8Array.from(value.split('.'), Number);
}

// Input is known to be valid IPv6 (net.isIPv6), so the only work is expanding `::` and a dotted tail.
function parseIPv6(value: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let text = value;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    bytes.set(parseIPv4(tail), 12);
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros: string[] = new Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  const groups = rest === undefined ? headGroups : [...headGroups, ...zeros, ...restGroups];
  groups.forEach((group, index) => {
    const word = Number.parseInt(group, 16);
    // The dotted tail was already written; its placeholder groups are zero.
    if (index >= 6 && tail.includes('.')) return;
    bytes[index * 2] = word >> 8;
    bytes[index * 2 + 1] = word & 0xff;
  });
  return bytes;
}

/** Formats 4 bytes as dotted decimal. */
export function formatIPv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}
