import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXIT } from '../../src/cli/exit.js';
import { anwc } from '../support/cli.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * Outputs are checked before the first request (issue: never a false green): a walk that ran for
 * minutes and then could not save its result lost the work. A missing folder is created, as wget
 * and linkinator do; a place that cannot be written is one line and exit 2 with no request sent.
 */

const HOST = 'out.test';
let web: TestWeb;
let dir: string;
/** A plain file, so that a path under it can never be a folder. */
let aFile: string;

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-outs-'));
  aFile = join(dir, 'plain-file');
  writeFileSync(aFile, 'not a folder\n');
  web.page(HOST, '/', '<!DOCTYPE html><html><head><title>Home</title></head><body><p>The keeper of the lighthouse walked to the rocks.</p><a href="/a.html">a</a></body></html>');
  web.page(HOST, '/a.html', '<!DOCTYPE html><html><head><title>A</title></head><body><p>A keeper by the sea.</p></body></html>');
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const common = () => ['--resolve', `${HOST}:127.0.0.1`, '--hosts', HOST, '--delay', '0', '--progress', 'none'];
const state = (name: string) => ['--state', `sqlite:${join(dir, `${name}.sqlite`)}`];

/** Runs anwc and says how many requests the server saw meanwhile. */
async function counted(args: string[]) {
  const before = web.requests();
  const r = await anwc(args, { cwd: dir });
  return { ...r, requests: web.requests() - before };
}

function refusedBeforeWork(r: Awaited<ReturnType<typeof counted>>, pattern: RegExp): void {
  assert.equal(r.code, EXIT.USAGE, r.stderr);
  assert.equal(r.requests, 0, 'nothing is fetched before the outputs are known to be writable');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, pattern);
}

describe('outputs are checked before the first request', () => {
  it('locate: a missing folder is made and the result written there', async () => {
    const out = join(dir, 'new', 'deeper', 'found.txt');
    const r = await counted(['locate', web.url(HOST, '/'), '--words', 'keeper', '--out', out, ...common(), ...state('locate-ok')]);
    assert.equal(r.code, EXIT.OK, r.stderr);
    assert.ok(existsSync(out));
  });

  it('locate: a folder that cannot be made (under a plain file) is refused before any request', async () => {
    refusedBeforeWork(await counted(['locate', web.url(HOST, '/'), '--words', 'keeper', '--out', join(aFile, 'found.txt'), ...common(), ...state('locate-bad')]),
      /cannot write .*plain-file\/found\.txt: its folder .* cannot be made or written \((?:EEXIST|ENOTDIR)\).*give --out a path in a folder you can write to/);
  });

  it('map: an --out that names a folder is refused before any request', async () => {
    const folder = join(dir, 'a-folder.json');
    mkdirSync(folder, { recursive: true });
    refusedBeforeWork(await counted(['map', web.url(HOST, '/'), '--out', folder, ...common(), ...state('map-bad')]), /--out names a folder/);
  });

  it('walk: a --report in a place that cannot be made is refused before any request', async () => {
    refusedBeforeWork(await counted(['walk', web.url(HOST, '/'), '--activity', 'trace-walk', '--report', join(aFile, 'r.html'), ...common(), ...state('walk-bad')]), /cannot write .*r\.html/);
  });

  it('maintain: an IndexFile whose folder cannot be made stops every task before the first request; a missing folder is made', async () => {
    const ins = join(dir, 'tasks.txt');
    const good = join(dir, 'reports', 'first.html');
    writeFileSync(ins, `<Site\nName first\nTopURL ${web.url(HOST, '/')}\nIndexFile ${good}\n>\n<Site\nName second\nTopURL ${web.url(HOST, '/a.html')}\nIndexFile ${join(aFile, 'second.html')}\n>\n`);
    refusedBeforeWork(await counted(['maintain', ins, '--db', `sqlite:${join(dir, 'm1.sqlite')}`, ...common()]), /second\.html: its folder .* cannot be made/);
    writeFileSync(ins, `<Site\nName first\nTopURL ${web.url(HOST, '/')}\nIndexFile ${good}\n>\n`);
    const ok = await counted(['maintain', ins, '--db', `sqlite:${join(dir, 'm2.sqlite')}`, ...common()]);
    assert.equal(ok.code, EXIT.OK, ok.stderr);
    assert.ok(existsSync(good));
  });

  it('maintain: --out beside an instruction file is refused up front, not ignored', async () => {
    const ins = join(dir, 'one-task.txt');
    writeFileSync(ins, `<Site\nName first\nTopURL ${web.url(HOST, '/')}\nIndexFile ${join(dir, 'one.html')}\n>\n`);
    refusedBeforeWork(await counted(['maintain', ins, '--out', join(dir, 'x.sarif'), '--db', `sqlite:${join(dir, 'm3.sqlite')}`, ...common()]),
      /--out with an instruction file: each task writes the IndexFile the file gives it/);
  });
});
