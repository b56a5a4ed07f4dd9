import { isIP } from 'node:net';
import { UserError } from '../errors.js';

/*
 * The --resolve mappings (curl's, without the port), read where the CLI checks its options: apart
 * from the address policy, so that a command that never connects does not load the DNS client.
 */

export interface Mapping {
  /** `alpha.test`, or `*.test` for every name under .test (not `test` itself). */
  pattern: string;
  address: string;
}

/** Parses `HOST:ADDR` entries; the address may be IPv6 (`h:[::1]` or `h:::1`). */
export function parseResolveMappings(entries: readonly string[]): Mapping[] {
  return entries.map((entry) => {
    const i = entry.indexOf(':');
    const pattern = entry.slice(0, i).trim().toLowerCase().replace(/\.$/, '');
    let address = i < 0 ? '' : entry.slice(i + 1).trim();
    if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
    const name = pattern.startsWith('*.') ? pattern.slice(2) : pattern;
    if (i < 0 || !name || !/^[a-z0-9.-]+$/.test(name) || !isIP(address)) {
      throw new UserError('--resolve needs HOST:ADDR', {
        value: entry,
        fix: 'write e.g. alpha.test:127.0.0.1 or *.test:127.0.0.1 (an IP address, no port)',
      });
    }
    return { pattern, address };
  });
}

export function mappedAddress(mappings: readonly Mapping[], host: string): string | undefined {
  const h = host.toLowerCase().replace(/\.$/, '');
  const exact = mappings.find((m) => m.pattern === h);
  if (exact) return exact.address;
  return mappings.find((m) => m.pattern.startsWith('*.') && h.endsWith(m.pattern.slice(1)))?.address;
}
