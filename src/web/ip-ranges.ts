import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which special-purpose range an IP address falls in (IANA special-purpose registries), so the
 * fetcher can refuse addresses a crawler has no business reaching: the crawler's own machine,
 * the private networks behind it, and addresses that are not hosts at all.
 */

interface Range {
  name: string;
  bits: 32 | 128;
  base: bigint;
  prefix: number;
}

function parseV4(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseV6(ip: string): bigint {
  let s = ip;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  // A trailing dotted quad (::ffff:1.2.3.4) is two groups.
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseV4(tail);
    s = `${s.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = s.split('::');
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest ? rest.split(':') : [];
  // Without a :: the eight groups are all there, and nothing is filled.
  const fill = 8 - headGroups.length - restGroups.length;
  const groups = [...headGroups, ...Array<string>(fill).fill('0'), ...restGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function range(name: string, cidr: string): Range {
  const [addr = '', len = ''] = cidr.split('/');
  const v4 = isIPv4(addr);
  return { name, bits: v4 ? 32 : 128, base: v4 ? parseV4(addr) : parseV6(addr), prefix: Number(len) };
}

const RANGES: Range[] = [
  range('unspecified', '0.0.0.0/8'),
  range('private', '10.0.0.0/8'),
  range('cgnat', '100.64.0.0/10'),
  range('loopback', '127.0.0.0/8'),
  range('link-local', '169.254.0.0/16'),
  range('private', '172.16.0.0/12'),
  range('reserved', '192.0.0.0/24'),
  range('documentation', '192.0.2.0/24'),
  range('private', '192.168.0.0/16'),
  range('benchmarking', '198.18.0.0/15'),
  range('documentation', '198.51.100.0/24'),
  range('documentation', '203.0.113.0/24'),
  range('multicast', '224.0.0.0/4'),
  range('reserved', '240.0.0.0/4'),
  range('unspecified', '::/128'),
  range('loopback', '::1/128'),
  range('discard', '100::/64'),
  range('documentation', '2001:db8::/32'),
  range('unique-local', 'fc00::/7'),
  range('link-local', 'fe80::/10'),
  range('site-local', 'fec0::/10'),
  range('multicast', 'ff00::/8'),
];

function inRange(value: bigint, bits: number, r: Range): boolean {
  if (r.bits !== bits) return false;
  const shift = BigInt(bits - r.prefix);
  return value >> shift === r.base >> shift;
}

function classifyV4(v: bigint): string | undefined {
  return RANGES.find((r) => inRange(v, 32, r))?.name;
}

/**
 * The name of the special range `ip` belongs to ('loopback', 'private', 'link-local', …), or
 * undefined for an ordinary public address. IPv6 forms that carry an IPv4 address (mapped,
 * compatible, NAT64, 6to4) are judged by the IPv4 address inside, so they cannot smuggle one.
 */
export function specialRange(ip: string): string | undefined {
  if (isIPv4(ip)) return classifyV4(parseV4(ip));
  if (!isIPv6(ip)) return 'not-an-address';
  const v = parseV6(ip);
  const hi96 = v >> 32n;
  const low32 = v & 0xffffffffn;
  if (hi96 === 0xffffn) return prefixed('ipv4-mapped', classifyV4(low32));
  if (hi96 === 0n && v > 1n) return prefixed('ipv4-compatible', classifyV4(low32));
  if (hi96 === 0x64ff9b0000000000000000n) return prefixed('nat64', classifyV4(low32));
  if (v >> 112n === 0x2002n) return prefixed('6to4', classifyV4((v >> 80n) & 0xffffffffn));
  return RANGES.find((r) => inRange(v, 128, r))?.name;
}

function prefixed(kind: string, inner: string | undefined): string | undefined {
  return inner === undefined ? undefined : `${kind} ${inner}`;
}
