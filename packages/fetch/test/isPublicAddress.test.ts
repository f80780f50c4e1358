import { describe, expect, it } from 'vitest';
import { checkAddress, isPublicAddress } from '../src/index.js';

// [first, last] address of every rejected range, plus the public neighbours just outside.
const REJECTED_RANGES: Array<[string, string, string]> = [
  ['0.0.0.0/8', '0.0.0.0', '0.255.255.255'],
  ['10.0.0.0/8', '10.0.0.0', '10.255.255.255'],
  ['100.64.0.0/10', '100.64.0.0', '100.127.255.255'],
  ['127.0.0.0/8', '127.0.0.0', '127.255.255.255'],
  ['169.254.0.0/16', '169.254.0.0', '169.254.255.255'],
  ['172.16.0.0/12', '172.16.0.0', '172.31.255.255'],
  ['192.0.0.0/24', '192.0.0.0', '192.0.0.255'],
  ['192.0.2.0/24', '192.0.2.0', '192.0.2.255'],
  ['192.88.99.0/24', '192.88.99.0', '192.88.99.255'],
  ['192.168.0.0/16', '192.168.0.0', '192.168.255.255'],
  ['198.18.0.0/15', '198.18.0.0', '198.19.255.255'],
  ['198.51.100.0/24', '198.51.100.0', '198.51.100.255'],
  ['203.0.113.0/24', '203.0.113.0', '203.0.113.255'],
  ['224.0.0.0/4', '224.0.0.0', '239.255.255.255'],
  ['240.0.0.0/4', '240.0.0.0', '255.255.255.254'],
  ['255.255.255.255/32', '255.255.255.255', '255.255.255.255'],
  ['::/128', '::', '::'],
  ['::1/128', '::1', '::1'],
  ['::ffff:0:0/96', '::ffff:0.0.0.0', '::ffff:255.255.255.255'],
  ['::/96', '::2', '::255.255.255.255'],
  ['64:ff9b:1::/48', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ['100::/64', '100::', '100::ffff:ffff:ffff:ffff'],
  ['2001::/32', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001::/23', '2001:1::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db8::/32', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['3fff::/20', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['5f00::/16', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fc00::/7', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fe80::/10', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fec0::/10', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['ff00::/8', 'ff00::', 'ff02::1'],
];

const PUBLIC_NEIGHBOURS = [
  '1.0.0.0',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.0',
  '192.0.3.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '203.0.112.255',
  '203.0.114.0',
  '223.255.255.255',
  '93.184.216.34',
  '8.8.8.8',
  '2000::',
  '2001:200::',
  '2001:4860:4860::8888',
  '2001:db9::',
  '2606:4700:4700::1111',
  '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  '2a00:1450:4001:80b::200e',
];

describe('isPublicAddress', () => {
  it.each(REJECTED_RANGES)('rejects the first and last address of %s', (range, first, last) => {
    for (const address of [first, last]) {
      const verdict = checkAddress(address);
      expect(verdict, address).toMatchObject({ public: false, range });
      expect(isPublicAddress(address)).toBe(false);
    }
  });

  it.each(PUBLIC_NEIGHBOURS)('accepts the public address %s', (address) => {
    expect(checkAddress(address)).toEqual({ public: true });
  });

  it('rejects IPv6 outside global unicast 2000::/3', () => {
    expect(checkAddress('4000::1')).toMatchObject({ public: false, range: '2000::/3' });
    expect(checkAddress('1fff:ffff::1')).toMatchObject({ public: false, range: '2000::/3' });
    expect(checkAddress('e000::1')).toMatchObject({ public: false, range: '2000::/3' });
  });

  it('judges 6to4 addresses by their embedded IPv4 address', () => {
    expect(isPublicAddress('2002:0808:0808::1')).toBe(true);
    expect(checkAddress('2002:7f00:0001::')).toEqual({
      public: false,
      reason: 'a 6to4 address embedding a loopback address (127.0.0.0/8)',
      range: '2002::/16',
    });
    expect(isPublicAddress('2002:c0a8:0101::1')).toBe(false);
  });

  it('judges well-known NAT64 addresses by their embedded IPv4 address', () => {
    expect(isPublicAddress('64:ff9b::8.8.8.8')).toBe(true);
    expect(isPublicAddress('64:ff9b::a9fe:a9fe')).toBe(false);
    expect(isPublicAddress('64:ff9b::10.0.0.1')).toBe(false);
  });

  it('rejects IPv4-mapped addresses even when the IPv4 part is public', () => {
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(false);
    expect(isPublicAddress('::ffff:7f00:1')).toBe(false);
  });

  it('accepts brackets and rejects zone indexes', () => {
    expect(isPublicAddress('[2606:4700::1]')).toBe(true);
    expect(checkAddress('fe80::1%eth0')).toMatchObject({ public: false, reason: 'a scoped (zone index) address' });
    expect(isPublicAddress('2606:4700::1%1')).toBe(false);
  });

  it.each(['', 'example.com', '1.2.3', '01.2.3.4', '256.1.1.1', '1.2.3.4.', '::g', '2130706433'])(
    'rejects the non-address %j',
    (text) => {
      expect(checkAddress(text)).toEqual({ public: false, reason: 'not an IP address' });
    },
  );
});
