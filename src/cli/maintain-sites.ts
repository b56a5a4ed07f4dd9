import type { AvoidEntry } from '../maintain/avoid.js';
import { liveSites, siteKey, type SiteEntry } from '../maintain/sites.js';
import type { Store } from '../store/store.js';
import { isRobotsRules, robotsAsPrefixes, type RobotsRules } from '../web/robots.js';

/**
 * The sites file as MOMspider used it (appendix D): a site listed there, until its date, has its
 * robots.txt rules in the avoid file already, so the walk does not ask for robots.txt again; a
 * site whose robots.txt the walk did read is listed, and its rules become Avoid entries of the
 * user's avoid file, when plain prefixes say all they say (otherwise the site is not listed and
 * robots.txt is read again next time). The walker keeps robots rules per origin; a sites entry
 * names a host and port, which stand for both schemes.
 */

/** The cause written on rules that stand for a sites-file entry, so that they are not learned back. */
const FROM_SITES = 'sites file: its rules are in the avoid file';
const DAY = 86_400_000;

/** Before the walk: each listed site's robots.txt counts as read, allowing all (the avoid file restricts). */
export async function seedSites(state: Store, entries: readonly SiteEntry[], now: number): Promise<void> {
  for (const e of liveSites(entries, now)) {
    const expiresAt = e.expires ?? Number.MAX_SAFE_INTEGER;
    const rules: RobotsRules = { kind: 'allow-all', text: '', truncated: false, cause: FROM_SITES, fetchedAt: now, expiresAt, failures: 0 };
    for (const origin of siteOrigins(e)) await state.saveRobots(origin, rules, expiresAt);
  }
}

/** The origins of a `host:port` site: http and https on that port (URL.origin leaves out a scheme's default port). */
function siteOrigins(e: SiteEntry): string[] {
  return ['http', 'https'].map((scheme) => new URL(`${scheme}://${e.host}:${e.port}/`).origin);
}

export interface LearnedSite {
  site: SiteEntry;
  avoid: AvoidEntry[];
}

/** After the walk: the sites of these URLs whose robots.txt was read in it, with their rules as Avoid entries. */
export async function learnSites(state: Store, urls: Iterable<string>, token: string, now: number, days: number): Promise<LearnedSite[]> {
  const out = new Map<string, LearnedSite>();
  for (const url of urls) {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
    const site = { host: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) };
    if (out.has(siteKey(site))) continue;
    const entry = await state.loadRobots(u.origin);
    const robots = entry && entry.expiresAt > now ? entry.robots : undefined;
    if (!isRobotsRules(robots) || robots.cause === FROM_SITES) continue;
    const prefixes = robotsAsPrefixes(robots, token);
    if (!prefixes) continue;
    const expires = now + days * DAY;
    out.set(siteKey(site), { site: { ...site, expires }, avoid: prefixes.map((p) => ({ action: 'avoid', prefix: `${u.origin}${p}`, expires })) });
  }
  return [...out.values()];
}

/**
 * What the user's files keep of what was learned: every site when there is an avoid file for
 * their rules, else only the sites whose robots.txt restricts nothing.
 */
export function recordSites(learned: readonly LearnedSite[], sites: SiteEntry[], avoid: AvoidEntry[] | undefined): void {
  for (const l of learned) {
    if (l.avoid.length > 0 && !avoid) continue;
    sites.push(l.site);
    for (const a of l.avoid) {
      const known = avoid!.findIndex((x) => x.prefix === a.prefix && x.action === 'avoid');
      if (known >= 0) avoid!.splice(known, 1);
      avoid!.push(a);
    }
  }
}
