import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WARCParser } from 'warcio';
import { Archive } from '../../src/archive/archive.js';
import type { FetchedPage } from '../../src/walk/fetch-step.js';

/** The archive folder: a directory URL and its index.html share one copy while the server gives them the same page; the WARC says what it cut. */

const tmp = mkdtempSync(join(tmpdir(), 'anwc-archive-unit-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function page(url: string, html: string): FetchedPage {
  const body = Buffer.from(html, 'utf8');
  return {
    url, finalUrl: url, status: 200, headers: { 'content-type': 'text/html' }, text: html, body,
    contentType: 'text/html', truncated: false, method: 'GET', requestHeaders: {},
  };
}

const entryOf = (a: Archive, url: string) => a.entries().find((e) => e.url === url)!;

describe('Archive: dir/ and dir/index.html', () => {
  it('share a copy while their bytes agree, and part when they no longer do, in this run and the next', async () => {
    const dir = join(tmp, 'twins');
    const home = '<p><a href="/about.html">about</a></p>';
    let a = Archive.create(dir, 'anwc/test');
    await a.store(page('http://h.test/', home), 0);
    await a.store(page('http://h.test/index.html', home), 1);
    assert.equal(entryOf(a, 'http://h.test/index.html').file, entryOf(a, 'http://h.test/').file);
    a.remapAll();
    await a.finish();
    assert.deepEqual(readdirSync(join(dir, 'h.test')), ['index.html']);

    // A later run (a refresh) reads the table back and finds /index.html changed.
    a = Archive.existing(dir, 'anwc/test');
    assert.equal(entryOf(a, 'http://h.test/index.html').file, 'h.test/index.html');
    await a.store(page('http://h.test/index.html', '<p>another page</p>'), 1);
    const own = entryOf(a, 'http://h.test/index.html').file;
    assert.notEqual(own, 'h.test/index.html', 'a page of its own gets a file of its own');
    a.remapAll();
    await a.finish();
    assert.match(readFileSync(join(dir, 'h.test', 'index.html'), 'utf8'), /about/, 'the root keeps its copy');
    assert.match(readFileSync(join(dir, own), 'utf8'), /another page/);
  });
});

describe('Archive: the WARC', () => {
  it('marks a body cut at the byte cap as truncated, in the response of a page and of an error answer', async () => {
    const dir = join(tmp, 'cut');
    const a = Archive.create(dir, 'anwc/test');
    await a.store({ ...page('http://h.test/long.html', '<p>the first part'), truncated: true }, 0);
    await a.store(page('http://h.test/whole.html', '<p>all of it</p>'), 0);
    await a.record({ method: 'GET', url: 'http://h.test/err', status: 500, headers: {}, requestHeaders: {}, body: Buffer.from('half'), truncated: true, at: Date.now() });
    await a.finish();
    const truncated = new Map<string, string | null>();
    for await (const r of new WARCParser(createReadStream(a.warcFile))) if (r.warcType === 'response') truncated.set(r.warcTargetURI ?? '', r.warcHeader('WARC-Truncated') ?? null);
    assert.deepEqual(Object.fromEntries(truncated), { 'http://h.test/long.html': 'length', 'http://h.test/whole.html': null, 'http://h.test/err': 'length' });
  });
});
