/**
 * The DNS constraints of the W4 paper: host comparisons are reliable only between canonical names,
 * so a name that is not literally one of the wanted hosts is compared through its DNS answer (its
 * CNAME target, or one of its addresses when a wanted host is an IP literal).
 */
import { constraint, MissingFact, type DnsFacts, type Constraint } from './constraint.js';

const canon = (h: string): string => h.trim().toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
const show = (xs: readonly string[]) => (xs.length === 1 ? xs[0]! : `(${xs.join(' ')})`);

/**
 * Whether `host` is one of `wanted`: literally (no lookup needed, the paper's "minimize DNS"), else by
 * its canonical name or addresses; `dns` undefined when a lookup was needed but not made.
 */
export function hostMatches(host: string, wanted: ReadonlySet<string>, dns: DnsFacts | undefined, field: string): boolean {
  if (wanted.has(canon(host))) return true;
  if (dns === undefined) throw new MissingFact(field, 'dns');
  return wanted.has(canon(dns.canonicalName)) || dns.addresses.some((a) => wanted.has(canon(a)));
}

/** "Succeeds when the URI refers to the host HOST. HOST can be a list of primary HOST domain names." */
export function uriHost(hosts: readonly string[]): Constraint {
  const wanted = new Set(hosts.map(canon));
  return constraint(`uri-host ${show(hosts)}`, 'dns', (c) => hostMatches(c.url.hostname, wanted, c.dns, 'dns'));
}

/** "Succeeds when the parent URI that refers to URI refers to the host HOST." */
export function uriReferrerHost(hosts: readonly string[]): Constraint {
  const wanted = new Set(hosts.map(canon));
  return constraint(`uri-referrer-host ${show(hosts)}`, 'dns', (c) => {
    if (c.referrer === undefined) throw new MissingFact('referrer', 'dns');
    return hostMatches(new URL(c.referrer).hostname, wanted, c.referrerDns, 'referrerDns');
  });
}
