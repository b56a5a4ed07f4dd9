import { keepNewest } from '../bounded.js';
import type { Link, LinkInput, Store } from '../store/store.js';
import { hostOf, normalizeUrl } from '../web/url.js';
import type { Candidate, ConstraintSet, DnsFacts } from './constraints/constraint.js';
import type { FoundLink } from './act-result.js';
import type { WalkOutcome } from './outcome.js';

/** Some 10 MB of URLs at most. */
const STORED_URLS_KEPT = 100_000;

/**
 * Links kept from one page, the first in page order: Heritrix's default (maxOutlinks). A cap
 * guards the frontier against one page, it is no sample: Nutch's 100 would cut the links of an
 * ordinary encyclopaedia article, which a link checker or an archive must all follow, while
 * 6,000 is above almost any page people write, and one page of 200,000 links stored 179,000.
 */
export const DEFAULT_MAX_LINKS_PER_PAGE = 6000;

/**
 * What the activity's cheaper constraints (context, URI, DNS) say about a link, before any
 * request: when a page's links are found (those refused are never stored), and again when a
 * stored link is picked, in case this run's settings differ from the run that stored it. A no at
 * pick time is the run's setting, not a verdict on the link: it is `refused`, looked at again by
 * the next run. The facts a constraint may read are filled here: referrer, path from the root
 * (only when a constraint asks for it), DNS answers (only when a DNS-class constraint exists).
 */
export class Scope {
  /** The activity has a constraint that reads the path from the root (no-cycles). */
  private readonly needsPath: boolean;

  /**
   * URLs this process knows the store holds (the page that found them was stored): found again,
   * they are not sent to be stored, where they would only be found there. A site's menus and
   * footers link the same pages from every page, as Scrapy's duplicate filter knows. Bounded: a
   * URL forgotten is sent again, and the store ignores it.
   */
  private readonly storedUrls = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly constraints: ConstraintSet,
    private readonly dns: (host: string) => Promise<{ facts: DnsFacts } | { outcome: WalkOutcome }>,
    private readonly maxUrlLength?: number,
    private readonly storedUrlsKept = STORED_URLS_KEPT,
  ) {
    this.needsPath = constraints.ordered.some((c) => /\bno-cycles\b/.test(c.name));
  }

  /** What the constraints may know of a stored link before any request. */
  async candidate(link: Link): Promise<Candidate> {
    return { url: new URL(link.url), depth: link.depth, referrer: link.referrerUrl ?? undefined, ...(this.needsPath ? { path: await this.pathOf(link) } : {}) };
  }

  /** The context, URI and DNS constraints on a picked link; its refusal, if they say no. */
  async filter(c: Candidate): Promise<WalkOutcome | undefined> {
    let v = this.constraints.check(c, 'uri');
    if (v.pass && this.constraints.needs('dns')) {
      const dns = await this.dns(c.url.hostname);
      if ('outcome' in dns) return dns.outcome;
      c.dns = dns.facts;
      if (c.referrer) {
        const r = await this.dns(new URL(c.referrer).hostname);
        if ('facts' in r) c.referrerDns = r.facts;
      }
      v = this.constraints.check(c, 'dns', 'dns');
    }
    return v.pass ? undefined : { kind: 'refused', reason: 'out-of-scope', constraint: v.constraint, ...(v.detail ? { detail: v.detail } : {}) };
  }

  /**
   * Links found on a page, in the one normal form the seeds have too (so `/%7euser/` and
   * `/~user/` are one link), kept when the context and URI constraints allow them; the rest are
   * counted by the rule that dropped them. Past `maxLinks` distinct links kept, the page's other
   * links are not looked at, only counted (`cut`); links already stored count among those kept.
   * They are `depth` links away (one more than the page, unless the walk counts afresh from it).
   */
  async discover(
    found: FoundLink[],
    from: Link,
    dropped: (rule: string) => void,
    maxLinks = DEFAULT_MAX_LINKS_PER_PAGE,
    depth = from.depth + 1,
  ): Promise<{ links: LinkInput[]; cut: number }> {
    const out: LinkInput[] = [];
    const seen = new Set<string>();
    const path = this.needsPath ? [...(await this.pathOf(from)), from.url] : undefined;
    let kept = 0;
    for (const [i, f] of found.entries()) {
      // What a page lists past the cap is not read: its links as the actions found them, counted.
      if (kept === maxLinks) return { links: out, cut: found.length - i };
      const n = normalizeUrl(typeof f === 'string' ? f : f.url, undefined, { maxLength: this.maxUrlLength });
      if (!n.ok) {
        dropped(n.reason);
        continue;
      }
      if (seen.has(n.url)) continue;
      seen.add(n.url);
      const v = this.constraints.check({ url: n.parsed, depth, referrer: from.url, ...(path ? { path } : {}) }, 'uri');
      if (!v.pass) {
        dropped(v.constraint);
        continue;
      }
      kept++;
      if (this.storedUrls.has(n.url)) continue;
      const priority = typeof f === 'string' ? undefined : f.priority;
      out.push({ url: n.url, host: hostOf(n.parsed), depth, queryId: from.queryId, referrerId: from.id, ...(priority === undefined ? {} : { priority }) });
    }
    return { links: out, cut: 0 };
  }

  /** These links are in the store now: a page that found them was stored. */
  stored(links: readonly LinkInput[]): void {
    for (const l of links) this.storedUrls.add(l.url);
    keepNewest(this.storedUrls, this.storedUrlsKept);
  }

  /** The URLs from the root down to the link's referrer, read up the referrer chain. */
  private async pathOf(link: Link): Promise<string[]> {
    const out: string[] = [];
    let id = link.referrerId;
    for (let hops = 0; id != null && hops <= link.depth; hops++) {
      const up = await this.store.link(id);
      if (!up) break;
      out.unshift(up.url);
      id = up.referrerId;
    }
    return out;
  }
}

