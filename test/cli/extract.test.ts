import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sharedPath, needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('corpus');

// npm test builds dist/ with tsc before running, and runs from the project root.
const MAIN = resolve(process.cwd(), 'dist/src/cli/main.js');
const anwc = (args: string[], input?: Buffer) =>
  spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', input, env: { ...process.env, ANWC_DEBUG: '' } });

const CHAPTER = 'corpus/standardebooks-arthur-conan-doyle_the-adventures-of-sherlock-holmes/text/a-scandal-in-bohemia.xhtml';

test('a Sherlock Holmes chapter: its narrative paragraphs are accepted, short lines rejected by rule', { skip: SHARED }, () => {
  const r = anwc(['extract', sharedPath(CHAPTER)]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^ACCEPT p#0 {2}"To Sherlock Holmes she is always the woman\. I have seldom.*…"$/);
  assert.ok(lines.some((l) => /^REJECT p#\d+ {2}min-words: \d words, needs more than 10 {2}"“Seven!” I answered\."$/.test(l)));
  const summary = lines.at(-1)!;
  const m = /^(\d+) blocks: (\d+) accepted, (\d+) rejected \(.*min-words \d+.*\)$/.exec(summary);
  assert.ok(m, summary);
  assert.equal(Number(m[1]), lines.length - 1);
  assert.ok(Number(m[2]) > 100, summary);
});

test('the Dive Into Python 3 index: its menu and notice paragraphs are all rejected', { skip: SHARED }, () => {
  const r = anwc(['extract', sharedPath('corpus/dive-into-python-3/index.html')]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.ok(lines.slice(0, -1).every((l) => l.startsWith('REJECT ')), r.stdout);
  assert.match(lines[0]!, /^REJECT p#0 {2}min-words: .*"You are here: •"$/);
  assert.match(lines.at(-1)!, /^\d+ blocks: 0 accepted, \d+ rejected/);
});

test('--json: one object per block with its verdict; --blocks adds tags; stdin with -', { skip: SHARED }, () => {
  const html = readFileSync(sharedPath('corpus/debian-handbook/apt.html'));
  const r = anwc(['extract', '--json', '--blocks', 'div', '-'], html);
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.ok(rows.every((o) => o.kind === 'block' && typeof o.accepted === 'boolean' && Array.isArray(o.reasons)));
  const apt = rows.find((o) => o.text.startsWith('APT is the abbreviation for Advanced Packaging Tool.'));
  assert.equal(apt?.tag, 'div');
  assert.equal(apt?.accepted, true);
  assert.ok(apt.stats.words > 10);
  assert.deepEqual(rows.map((o) => o.index), rows.map((_, i) => i));
});

test('--base-url lists the page links resolved against it', { skip: SHARED }, () => {
  const r = anwc(['extract', '--base-url', 'http://book.test/index.html', sharedPath('corpus/dive-into-python-3/index.html')]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^BASE http:\/\/book\.test\/index\.html {2}robots: index,follow$/m);
  assert.match(r.stdout, /^LINK http:\/\/book\.test\/whats-new\.html {2}".+"$/m);
});

test('a missing file: one line naming it, exit 2, no stack', () => {
  const r = anwc(['extract', 'no-such-page.html']);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'anwc: no-such-page.html: cannot read: no such file\n');
});

test('an unknown --charset is a usage error naming the value', { skip: SHARED }, () => {
  const r = anwc(['extract', '--charset', 'klingon', sharedPath(CHAPTER)]);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  assert.match(r.stderr, /unknown --charset \(got "klingon"\)/);
});

test('--extractor narrative shows what it keeps of the main content and what it dropped by rule; the thesis flags do not mix with it', () => {
  const p = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
  const html = Buffer.from(`<html><head><title>The keeper</title></head><body><nav><a href="/">Home</a> <a href="/a">About</a></nav>
    <article><h1>The keeper</h1><div>${p}<br><br>${p.replace('dusk', 'dawn')}<br><br>By Martha Keel</div></article></body></html>`);
  const r = anwc(['extract', '--extractor', 'narrative', '-'], html);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trimEnd().split('\n'), [
    `KEEP  ${JSON.stringify(`${p.slice(0, 60).trimEnd()}…`)}`,
    `KEEP  ${JSON.stringify(`${p.replace('dusk', 'dawn').slice(0, 60).trimEnd()}…`)}`,
    '3 blocks of the main content: 2 kept; dropped: byline 1',
  ]);
  const json = anwc(['extract', '--extractor', 'narrative', '--json', '-'], html).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(json.at(-1), { kind: 'summary', blocks: 3, kept: 2, rejected: { byline: 1 } });
  assert.equal(json[0].text, p);
  const mixed = anwc(['extract', '--extractor', 'narrative', '--blocks', 'div', '-'], html);
  assert.equal(mixed.status, 2);
  assert.equal(mixed.stderr, 'anwc: --blocks applies to the thesis extractor (got "div"); leave out --blocks: narrative reads its own block kinds and link density\n');
});
