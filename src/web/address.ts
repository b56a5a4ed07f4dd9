import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { keepNewest } from '../bounded.js';
import { specialRange } from './ip-ranges.js';
import { mappedAddress, parseResolveMappings, type Mapping } from './resolve-mappings.js';

/**
 * Address safety: which IP address a host name may be connected to. Explicit mappings (curl's
 * --resolve, without the port) come first and are trusted even when they point at loopback;
 * otherwise the name is resolved and special-purpose addresses are refused unless allowPrivate.
 * The connector (connector.ts) dials exactly the address checked here, so a DNS answer that
 * changes between check and connect (rebinding) has nothing to slip through.
 */

export type AddressVerdict =
  | { ok: true; address: string; family: 4 | 6; via: 'mapping' | 'literal' | 'dns' }
  | { ok: false; failure: 'dns' | 'refused-address'; detail: string };

export type LookupFn = (host: string) => Promise<{ address: string; family: number }[]>;

export interface AddressPolicyOptions {
  resolve?: readonly string[] | readonly Mapping[];
  allowPrivate?: boolean;
  /** Name resolution; the system resolver by default. Tests pass one that never leaves the box. */
  lookup?: LookupFn;
  /** How long an answer is reused. Safe to cache: the connection goes to the cached, checked address. */
  cacheMs?: number;
  now?: () => number;
}

const systemLookup: LookupFn = (host) => dnsLookup(host, { all: true, verbatim: true });

const NEVER = /\b(unspecified|multicast|reserved|discard|not-an-address)$/;

export class AddressPolicy {
  readonly mappings: readonly Mapping[];
  readonly allowPrivate: boolean;
  private readonly lookup: LookupFn;
  private readonly cacheMs: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, { at: number; verdict: Promise<AddressVerdict> }>();

  constructor(opts: AddressPolicyOptions = {}) {
    const r = opts.resolve ?? [];
    this.mappings = r.length && typeof r[0] === 'string' ? parseResolveMappings(r as string[]) : (r as Mapping[]);
    this.allowPrivate = opts.allowPrivate ?? false;
    this.lookup = opts.lookup ?? systemLookup;
    this.cacheMs = opts.cacheMs ?? 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** The address to dial for `host`, or why there is none. Never throws. */
  check(host: string): Promise<AddressVerdict> {
    const h = host.startsWith('[') ? host.slice(1, -1) : host.toLowerCase();
    const hit = this.cache.get(h);
    if (hit && this.now() - hit.at < this.cacheMs) return hit.verdict;
    const verdict = this.decide(h);
    this.cache.set(h, { at: this.now(), verdict });
    keepNewest(this.cache, 10_000);
    return verdict;
  }

  private async decide(host: string): Promise<AddressVerdict> {
    const mapped = mappedAddress(this.mappings, host);
    if (mapped) return { ok: true, address: mapped, family: isIP(mapped) as 4 | 6, via: 'mapping' };
    if (isIP(host)) {
      const refused = this.refusal(host);
      return refused ?? { ok: true, address: host, family: isIP(host) as 4 | 6, via: 'literal' };
    }
    let answers: { address: string; family: number }[];
    try {
      answers = await this.lookup(host);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'lookup failed';
      return { ok: false, failure: 'dns', detail: `${host}: ${code}` };
    }
    if (answers.length === 0) return { ok: false, failure: 'dns', detail: `${host}: no address` };
    // Dial only addresses that pass; a name with one bad address among good ones still works.
    const reasons: string[] = [];
    for (const a of answers) {
      const refused = this.refusal(a.address);
      if (!refused) return { ok: true, address: a.address, family: a.family === 6 ? 6 : 4, via: 'dns' };
      reasons.push(refused.detail);
    }
    return { ok: false, failure: 'refused-address', detail: `${host} → ${reasons.join(', ')}` };
  }

  private refusal(address: string): (AddressVerdict & { ok: false }) | undefined {
    const special = specialRange(address);
    if (special === undefined) return undefined;
    // --allow-private opens the networks a user may mean; addresses that are no host stay shut.
    if (this.allowPrivate && !NEVER.test(special)) return undefined;
    return {
      ok: false,
      failure: 'refused-address',
      detail: `${address} is ${special}`,
    };
  }
}
