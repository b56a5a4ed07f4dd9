import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anwc } from '../support/cli.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * The sites file of appendix D at work: a site whose robots.txt was read is listed with a date,
 * its Disallow lines become Avoid entries of the avoid file, and the next run does not ask for
 * that robots.txt again while still keeping out of what it forbade. A robots.txt that prefixes
 * cannot express (a wildcard) is read again every run.
 */

let web: TestWeb;
let dir: string;
const page = (links: string[]) => `<!DOCTYPE html><html><head><title>p</title></head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
const robots = (text: string) => ({ headers: { 'content-type': 'text/plain' } as Record<string, string>, text });

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-sites-'));
  const r1 = robots('User-agent: *\nDisallow: /private/\n');
  web.page('robo.test', '/robots.txt', r1.text, { headers: r1.headers });
  web.page('robo.test', '/index.html', page(['/a.html', '/private/x.html', web.url('wild.test', '/b.html')]));
  web.page('robo.test', '/a.html', page([]));
  web.page('robo.test', '/private/x.html', page([]));
  const r2 = robots('User-agent: *\nDisallow: /*.pdf\n');
  web.page('wild.test', '/robots.txt', r2.text, { headers: r2.headers });
  web.page('wild.test', '/b.html', page([]));
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...extra: string[]) => anwc(['maintain', '--site', web.url('robo.test', '/index.html'), '--avoid', join(dir, 'avoid.mom'), '--sites', join(dir, 'sites.mom'),
  '--sites-check', '7', '--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', '*.test:127.0.0.1', '--hosts', 'robo.test,wild.test', '--delay', '0', '--progress', 'none', ...extra]);

describe('anwc maintain --sites', () => {
  it('lists a site whose robots.txt it read and keeps its rules in the avoid file', async () => {
    writeFileSync(join(dir, 'sites.mom'), 'Site old.test:80 [Thu, 29 Sep 1994 23:59:59 GMT]\nSite never.test:8001 [*]\n');
    const r = await run();
    assert.equal(r.code, 0, r.stderr);
    const sites = readFileSync(join(dir, 'sites.mom'), 'utf8');
    assert.match(sites, /^# MOMspider-0\.1a Sites File/);
    const listed = sites.split('\n').filter((l) => l.startsWith('Site '));
    assert.deepEqual(listed.map((l) => l.replace(/ \[.*\]$/, '')), ['Site never.test:8001', `Site robo.test:${web.port}`], 'the expired entry is dropped; the wildcard site is not listed');
    const date = Date.parse(/robo\.test:\d+ \[(.*)\]/.exec(sites)![1]!);
    assert.ok(Math.abs(date - (Date.now() + 7 * 86_400_000)) < 120_000, 'listed for SitesCheck days');
    const avoid = readFileSync(join(dir, 'avoid.mom'), 'utf8');
    assert.match(avoid, new RegExp(`^Avoid http://robo\\.test:${web.port}/private/ \\[.+\\]$`, 'm'));
    assert.equal(web.count('robo.test', '/private/x.html'), 0);
  });

  it('does not ask a listed site for robots.txt again, and still keeps out of what it forbade', async () => {
    const [robo, wild] = [web.count('robo.test', '/robots.txt'), web.count('wild.test', '/robots.txt')];
    const r = await run();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(web.count('robo.test', '/robots.txt'), robo, 'robots.txt of a listed site is not asked');
    assert.equal(web.count('wild.test', '/robots.txt'), wild + 1, 'a site that is not listed is asked again');
    assert.equal(web.count('robo.test', '/private/x.html'), 0);
    assert.equal(web.count('robo.test', '/a.html'), 2);
  });

  it('refuses a sites file with a bad line, at its line and column, and changes nothing', async () => {
    const bad = join(dir, 'bad.mom');
    writeFileSync(bad, '# sites\nSite robo.test [*]\n');
    const r = await anwc(['maintain', '--site', web.url('robo.test', '/index.html'), '--sites', bad, '--db', `sqlite:${join(dir, 'mom.sqlite')}`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /bad\.mom:2:1: expected Site host:port \[date\|\*\]/);
    assert.equal(readFileSync(bad, 'utf8'), '# sites\nSite robo.test [*]\n');
  });
});
