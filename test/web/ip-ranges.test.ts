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

test('IPv6 forms that embed an IPv4 address are judged by it', () => {
  assert.equal(specialRange('::ffff:127.0.0.1'), 'ipv4-mapped loopback');
  assert.equal(specialRange('::ffff:7f00:1'), 'ipv4-mapped loopback');
  assert.equal(specialRange('::ffff:10.1.2.3'), 'ipv4-mapped private');
  assert.equal(specialRange('64:ff9b::a9fe:a9fe'), 'nat64 link-local');
  assert.equal(specialRange('2002:c0a8:0101::1'), '6to4 private');
});

test('a string that is no address is refused by name', () => {
  assert.equal(specialRange('example.com'), 'not-an-address');
});
