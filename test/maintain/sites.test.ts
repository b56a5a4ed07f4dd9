import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSites, serializeSites } from '../../src/maintain/sites.js';
import { robotsAsPrefixes, robotsFromFetch } from '../../src/web/robots.js';

describe('the sites file (appendix D)', () => {
  it('reads the paper\'s example and writes it back without what expired', () => {
    const text = 'Site www.ics.uci.edu:80 [*]\nSite betelgeuse.com:80 [Fri, 31 Dec 1999 09:30:00 GMT]\nSite simplon.ics.uci.edu:8001 [Thu, 29 Sep 1994 23:59:59 GMT]\n';
    const { entries, errors } = parseSites(`# comment\n\n${text}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(entries, [
      { host: 'www.ics.uci.edu', port: 80 },
      { host: 'betelgeuse.com', port: 80, expires: Date.UTC(1999, 11, 31, 9, 30) },
      { host: 'simplon.ics.uci.edu', port: 8001, expires: Date.UTC(1994, 8, 29, 23, 59, 59) },
    ]);
    const back = serializeSites(entries, Date.UTC(1995, 0, 1));
    assert.deepEqual(back.split('\n').filter((l) => l.startsWith('Site')), ['Site www.ics.uci.edu:80 [*]', 'Site betelgeuse.com:80 [Fri, 31 Dec 1999 09:30:00 GMT]']);
    assert.deepEqual(parseSites(back).entries, entries.slice(0, 2), 'what it writes it reads');
  });

  it('says where a line is wrong', () => {
    assert.deepEqual(parseSites('Site a.test:80 [*]\n  Site b.test [*]\nSite c.test:99999\nSite d.test:80 [someday]\nSite  e%zz.test:80').errors, [
      { line: 2, col: 3, message: 'expected Site host:port [date|*]' },
      { line: 3, col: 1, message: 'expected Site host:port [date|*]' },
      { line: 4, col: 16, message: 'not a date: someday' },
      { line: 5, col: 7, message: 'not a host name: e%zz.test' },
    ]);
  });
});

describe('robots.txt rules as Avoid prefixes', () => {
  const rules = (text: string) => robotsFromFetch({ status: 200, body: text }, 0);
  it('gives the disallowed prefixes of the group that applies', () => {
    assert.deepEqual(robotsAsPrefixes(rules('User-agent: *\nDisallow: /b/\nDisallow: /a\nDisallow:\n\nUser-agent: other\nDisallow: /\n'), 'anwc'), ['/a', '/b/']);
    assert.deepEqual(robotsAsPrefixes(rules('User-agent: anwc\nDisallow: /mine/\n\nUser-agent: *\nDisallow: /\n'), 'anwc/0.1'), ['/mine/']);
    assert.deepEqual(robotsAsPrefixes(robotsFromFetch({ status: 404 }, 0), 'anwc'), []);
  });

  it('gives nothing when prefixes would change the answer', () => {
    assert.equal(robotsAsPrefixes(rules('User-agent: *\nDisallow: /*.pdf\n'), 'anwc'), undefined);
    assert.equal(robotsAsPrefixes(rules('User-agent: *\nDisallow: /a$\n'), 'anwc'), undefined);
    assert.equal(robotsAsPrefixes(rules('User-agent: *\nDisallow: /a/\nAllow: /a/b\n'), 'anwc'), undefined);
    assert.equal(robotsAsPrefixes(rules('User-agent: *\nCrawl-delay: 5\nDisallow: /a/\n'), 'anwc'), undefined);
    assert.equal(robotsAsPrefixes(robotsFromFetch({ status: 503 }, 0), 'anwc'), undefined);
  });
});
