import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EXIT } from '../../src/cli/exit.js';
import { makeFolder } from '../../src/make-folder.js';
import { startAnwc, type CliResult } from '../support/cli.js';

/*
 * Making the folders a command writes into (issue: hostile input): a place where folders cannot be
 * made is one line and exit 2, at once, never a wait. Node's own recursive mkdir tries again for
 * ever where /proc answers ENOENT.
 */

const tmp = mkdtempSync(join(tmpdir(), 'anwc-folders-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const PROC = existsSync('/proc/self') ? false : 'needs /proc (Linux), where a folder cannot be made';

describe('makeFolder', () => {
  it('makes the folder and every missing one above it, and leaves one already there', () => {
    const deep = join(tmp, 'a', 'b', 'c');
    makeFolder(deep);
    assert.ok(statSync(deep).isDirectory());
    makeFolder(deep);
    makeFolder(join(tmp, 'a'));
    assert.ok(statSync(deep).isDirectory());
  });

  it('says why it cannot: a file in the way', () => {
    writeFileSync(join(tmp, 'file'), 'x');
    assert.throws(() => makeFolder(join(tmp, 'file', 'sub')), { code: 'ENOTDIR' });
    assert.throws(() => makeFolder(join(tmp, 'file')), { code: 'EEXIST' });
  });
});

/**
 * The command's end, or a kill after 20 s: the hang this guards against (a loop, synchronous, that
 * no test in this process could stop) must end red, not never.
 */
async function bounded(args: string[]): Promise<CliResult> {
  const { child, exited } = startAnwc(args);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

describe('a command whose folder cannot be made', { skip: PROC }, () => {
  it('anwc import into a SQLite file under /proc: one line, exit 2', async () => {
    const r = await bounded(['import', 'ane-markup/sample.ane', '--db', 'sqlite:/proc/anwc-no-such/story.sqlite']);
    assert.equal(r.code, EXIT.USAGE, r.stderr);
    assert.match(r.stderr, /^anwc: cannot open SQLite database \/proc\/anwc-no-such\/story\.sqlite: .*ENOENT.*\n$/);
  });

  it('anwc map with --out under /proc: one line, exit 2, before any walk', async () => {
    const r = await bounded(['map', 'http://x.test/', '--resolve', 'x.test:127.0.0.1', '--hosts', 'x.test', '--out', '/proc/anwc-no-such/map.html']);
    assert.equal(r.code, EXIT.USAGE, r.stderr);
    assert.match(r.stderr, /^anwc: cannot write \/proc\/anwc-no-such\/map\.html: its folder \/proc\/anwc-no-such cannot be made or written \(ENOENT\)/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });

  it('anwc map with --out in /proc itself, a folder that is there and takes no file: one line, exit 2, before any walk', async () => {
    const r = await bounded(['map', 'http://x.test/', '--resolve', 'x.test:127.0.0.1', '--hosts', 'x.test', '--out', '/proc/anwc-map.html']);
    assert.equal(r.code, EXIT.USAGE, r.stderr);
    assert.match(r.stderr, /^anwc: cannot write \/proc\/anwc-map\.html: its folder \/proc cannot be made or written \(ENOENT\)/);
    assert.doesNotMatch(r.stderr, /map from/, 'no walk started');
  });
});
