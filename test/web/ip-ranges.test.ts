import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specialRange } from '../../src/web/ip-ranges.js';

test('ordinary public addresses are not special', () => {
  for (const ip of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8', '100.63.255.255', '172.32.0.1']) {
    assert.equal(specialRange(ip), undefined, ip);
  }
});

test('each special range is named', () => {
  const cases: [string, string][] = [
    ['127.0.0.2', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
  ];
  for (const [ip, name] of cases) assert.equal(specialRange(ip), name, ip);
});

test('every range holds its first and last address, and the addresses either side of it are public', () => {
  // [first, last, name, just below, just above]: a range written wrong (a digit, a prefix length)
  // moves an end, and a range left out leaves its ends public.
  const ranges: [string, string, string, string | undefined, string | undefined][] = [
    ['0.0.0.0', '0.255.255.255', 'unspecified', undefined, '1.0.0.0'],
    ['10.0.0.0', '10.255.255.255', 'private', '9.255.255.255', '11.0.0.0'],
    ['100.64.0.0', '100.127.255.255', 'cgnat', '100.63.255.255', '100.128.0.0'],
    ['127.0.0.0', '127.255.255.255', 'loopback', '126.255.255.255', '128.0.0.0'],
    ['169.254.0.0', '169.254.255.255', 'link-local', '169.253.255.255', '169.255.0.0'],
    ['172.16.0.0', '172.31.255.255', 'private', '172.15.255.255', '172.32.0.0'],
    ['192.0.0.0', '192.0.0.255', 'reserved', '191.255.255.255', '192.0.1.0'],
    ['192.0.2.0', '192.0.2.255', 'documentation', '192.0.1.255', '192.0.3.0'],
    ['192.168.0.0', '192.168.255.255', 'private', '192.167.255.255', '192.169.0.0'],
    ['198.18.0.0', '198.19.255.255', 'benchmarking', '198.17.255.255', '198.20.0.0'],
    ['198.51.100.0', '198.51.100.255', 'documentation', '198.51.99.255', '198.51.101.0'],
    ['203.0.113.0', '203.0.113.255', 'documentation', '203.0.112.255', '203.0.114.0'],
    ['224.0.0.0', '239.255.255.255', 'multicast', '223.255.255.255', undefined],
    ['240.0.0.0', '255.255.255.255', 'reserved', undefined, undefined],
    ['100::', '100::ffff:ffff:ffff:ffff', 'discard', 'ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '100:0:0:1::'],
    ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::'],
    ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local', 'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe00::'],
    ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local', 'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined],
    ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local', undefined, undefined],
    ['ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast', undefined, undefined],
  ];
  for (const [first, last, name, below, above] of ranges) {
    assert.equal(specialRange(first), name, first);
    assert.equal(specialRange(last), name, last);
    if (below !== undefined) assert.equal(specialRange(below), undefined, below);
    if (above !== undefined) assert.equal(specialRange(above), undefined, above);
  }
});

test('IPv6 written short or with a zone is read as the full address', () => {
  assert.equal(specialRange('fe80::'), 'link-local', 'nothing after the ::');
  assert.equal(specialRange('2001:db8::'), 'documentation');
  assert.equal(specialRange('fe80:0:0:0:0:0:0:1'), 'link-local', 'no :: at all');
  // A zone names an interface, and an interface name may hold a dot (a VLAN's, eth0.100).
  assert.equal(specialRange('fe80::1%eth0'), 'link-local');
  assert.equal(specialRange('fe80::1%eth0.100'), 'link-local');
});

test('IPv6 forms that embed an IPv4 address are judged by it', () => {
  assert.equal(specialRange('::127.0.0.1'), 'ipv4-compatible loopback');
  assert.equal(specialRange('::a00:1'), 'ipv4-compatible private');
  assert.equal(specialRange('::8.8.8.8'), undefined, 'a public address inside is public');
  assert.equal(specialRange('::ffff:127.0.0.1'), 'ipv4-mapped loopback');
  assert.equal(specialRange('::ffff:7f00:1'), 'ipv4-mapped loopback');
  assert.equal(specialRange('::ffff:10.1.2.3'), 'ipv4-mapped private');
  assert.equal(specialRange('64:ff9b::a9fe:a9fe'), 'nat64 link-local');
  assert.equal(specialRange('2002:c0a8:0101::1'), '6to4 private');
});

test('a string that is no address is refused by name', () => {
  assert.equal(specialRange('example.com'), 'not-an-address');
});
