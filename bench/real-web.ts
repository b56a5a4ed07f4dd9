import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sharedPath } from '../test/support/shared.js';

/**
 * A web of real pages for the crawl bench (issue: speed): the graded web's pages are some 1.5 kB of
 * generated prose, where the pages of ../shared (the two extraction sets and the corpus books)
 * are some 100 kB of real HTML each, and reading a page costs the action's thread twenty to thirty
 * times more. H hosts × P pages, each a page of ../shared in turn, its bytes as given (its
 * charset is the crawler's to find) with its own links and frames pointed at a host outside the
 * crawl's --hosts (dropped before any look-up) and five links to pages of its host added at its end.
 */

/** The folders of ../shared whose HTML pages the web serves. */
export const REAL_PAGE_DIRS = ['data/extraction/html', 'data/readability/html', 'corpus'];

export interface RealWeb {
  hosts: { host: string; pages: Map<string, Buffer> }[];
  /** The distinct pages of ../shared served, and their mean size in bytes. */
  sources: number;
  meanBytes: number;
}

export function realHostName(i: number): string {
  return `r${i}.real.test`;
}

/** Every page of ../shared's folders, as bytes, in a fixed order: page p of host h is (h × P + p) mod their count. */
export function sharedPages(): Buffer[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.x?html?(\.gz)?$/.test(name)) files.push(path);
    }
  };
  for (const dir of REAL_PAGE_DIRS) walk(sharedPath(dir));
  return files.map((f) => (f.endsWith('.gz') ? gunzipSync(readFileSync(f)) : readFileSync(f)));
}

/** A page's own links and frames, pointed away: the crawl's pages are the web's, not the pages' sites'. */
const HREF = /(\s(?:href|src)\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi;
const AWAY = '"http://elsewhere.invalid/"';

/** The web on `port`: the links added name their host and port, as a page's `<base>` (pointed away too) would take a relative one off the crawl. */
export function realWeb(hosts: number, pagesPerHost: number, port: number): RealWeb {
  const sources = sharedPages();
  const out: RealWeb['hosts'] = [];
  for (let h = 0; h < hosts; h++) {
    const pages = new Map<string, Buffer>([['/robots.txt', Buffer.from('User-agent: *\nAllow: /\n')]]);
    for (let p = 0; p < pagesPerHost; p++) {
      // Latin-1 maps each byte to one character and back: the page's bytes stay as they were.
      const html = sources[(h * pagesPerHost + p) % sources.length]!.toString('latin1').replace(HREF, `$1${AWAY}`);
      const links = [1, 2, 3, 4, 5].map((k) => `<a href="http://${realHostName(h)}:${port}/p${(p + k * k) % pagesPerHost}.html">page ${k}</a>`).join(' ');
      pages.set(p === 0 ? '/' : `/p${p}.html`, Buffer.from(`${html}\n<p>${links}</p>\n`, 'latin1'));
    }
    // The home page is page 0; a link to /p0.html is a page of its own, as on a real site.
    pages.set('/p0.html', pages.get('/')!);
    out.push({ host: realHostName(h), pages });
  }
  const meanBytes = sources.reduce((sum, s) => sum + s.length, 0) / Math.max(1, sources.length);
  return { hosts: out, sources: sources.length, meanBytes };
}
