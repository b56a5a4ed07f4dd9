import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realHostName, realWeb, REAL_PAGE_DIRS, sharedPages } from '../../bench/real-web.js';
import { extractLinks, parseBytes } from '../../src/html/index.js';
import { needsShared } from '../support/shared.js';

/** The crawl bench's real-page web must be what its table says it is, and keep its crawl on it. */

const SHARED = needsShared(...REAL_PAGE_DIRS);

describe('the real pages web', { skip: SHARED }, () => {
  it('serves the pages of ../shared at their size, each linking only to its own host or off the crawl', () => {
    const web = realWeb(2, 30, 8123);
    assert.ok(web.sources > 400, `${web.sources} pages`);
    assert.ok(web.meanBytes > 50_000, `pages of ${web.meanBytes} bytes on average`);
    for (const [h, host] of web.hosts.entries()) {
      assert.equal(host.host, realHostName(h));
      for (const [path, bytes] of host.pages) {
        if (path === '/robots.txt') continue;
        const url = `http://${host.host}:8123${path}`;
        const { links } = extractLinks(parseBytes(bytes, 'text/html'), { url });
        assert.ok(links.length >= 5, `${url}: ${links.length} links`);
        for (const l of links) assert.match(l.url, /^(http:\/\/r\d+\.real\.test:8123\/(p\d+\.html)?|http:\/\/elsewhere\.invalid\/)$/, `${url} links to ${l.url}`);
        assert.ok(links.filter((l) => l.url.includes('.real.test')).every((l) => l.url.includes(host.host)), `${url} links to another host`);
      }
    }
  });

  it('keeps a page\'s bytes but for its links, and reaches every page from the home page', () => {
    const web = realWeb(1, 10, 8123);
    // A page beyond ASCII: Latin-1 carries each byte across as it is.
    const sources = sharedPages();
    const at = sources.slice(1, 10).findIndex((b) => b.some((x) => x >= 0x80)) + 1;
    assert.ok(at > 0, 'a page beyond ASCII among the first ten');
    const page = web.hosts[0]!.pages.get(`/p${at}.html`)!.toString('latin1');
    const withoutLinks = (html: string) => html.replace(/(\s(?:href|src)\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi, '$1');
    const added = /\n<p>(<a href="http:\/\/r0\.real\.test:8123\/p\d+\.html">page \d<\/a> ?){5}<\/p>\n$/;
    assert.match(page, added);
    assert.equal(withoutLinks(page.replace(added, '')), withoutLinks(sources[at]!.toString('latin1')));
    // Every page of the host is reachable from its home page by the added links.
    const seen = new Set(['/']);
    const queue = ['/'];
    while (queue.length > 0) {
      const bytes = web.hosts[0]!.pages.get(queue.shift()!)!;
      for (const l of extractLinks(parseBytes(bytes, 'text/html'), { url: 'http://r0.real.test:8123/' }).links) {
        const path = new URL(l.url).pathname;
        if (l.url.includes('.real.test') && !seen.has(path)) {
          seen.add(path);
          queue.push(path);
        }
      }
    }
    assert.equal(seen.size, 11, [...seen].join(' '));
  });
});
