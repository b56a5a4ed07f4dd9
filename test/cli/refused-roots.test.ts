import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXIT } from '../../src/cli/exit.js';
import { anwc } from '../support/cli.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * A walking command whose root the address policy refuses did none of the work asked for: it
 * must not end as a success (issue: never a false green). Each command is run twice on the same
 * loopback root: without a permission (exit 1, one line naming the root and the fix, nothing
 * named that was not written) and with --allow-private (exit 0), so the exit is the refusal's.
 */

const HOST = '127.0.0.1';
let web: TestWeb;
let dir: string;

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-refused-'));
  web.page(HOST, '/', '<!DOCTYPE html><html><head><title>Home</title></head><body><p>The keeper of the lighthouse walked to the rocks.</p><a href="/a.html">a</a></body></html>');
  web.page(HOST, '/busy.html', 'not now', { status: 429 });
  web.page(HOST, '/gone.html', 'gone', { status: 404 });
  web.page(HOST, '/a.html', '<!DOCTYPE html><html><head><title>A</title></head><body><p>A quiet page about the sea.</p></body></html>');
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const common = ['--delay', '0', '--progress', 'none', '--hosts', HOST];

/** Each command's flags after its root, writing into `out`. */
const commands: [string, (out: string) => string[]][] = [
  ['map', (out) => ['--out', join(out, 'map.json')]],
  ['archive', (out) => ['--out', join(out, 'copy')]],
  ['locate', (out) => ['--words', 'keeper', '--out', join(out, 'found.txt')]],
  ['walk', () => ['--activity', 'trace-walk']],
  ['maintain', (out) => ['--out', join(out, 'index.json'), '--db', `sqlite:${join(out, 'maintain.sqlite')}`]],
];

describe('a root the address policy refuses', () => {
  for (const [name, args] of commands) {
    it(`${name}: exit 1 and the line that says how to permit it; with --allow-private, exit 0`, async () => {
      const root = web.url(HOST, '/');
      const refusedDir = mkdtempSync(join(dir, `${name}-`));
      const state = ['--state', `sqlite:${join(refusedDir, 'state.sqlite')}`];
      const task = [name, ...(name === 'maintain' ? ['--site', root] : [root])];
      const refused = await anwc([...task, ...args(refusedDir), ...common, ...(name === 'archive' ? [] : state)], { cwd: refusedDir });
      assert.equal(refused.code, EXIT.PROBLEMS, refused.stderr);
      assert.match(refused.stderr, new RegExp(`root ${root.replace(/[./]/g, '\\$&')} not walked: the address is refused by this run's settings \\(127\\.0\\.0\\.1 is loopback\\); a run with --resolve HOST:ADDRESS or --allow-private walks it`));
      if (name === 'archive') {
        assert.doesNotMatch(refused.stderr, /WARC \//, 'no WARC is named when none was written');
        assert.equal(existsSync(join(refusedDir, 'copy', 'anwc.warc.gz')), false);
      }

      const allowedDir = mkdtempSync(join(dir, `${name}-ok-`));
      const allowedState = ['--state', `sqlite:${join(allowedDir, 'state.sqlite')}`];
      const allowed = await anwc([...task, ...args(allowedDir), ...common, '--allow-private', ...(name === 'archive' ? [] : allowedState)], { cwd: allowedDir });
      assert.equal(allowed.code, EXIT.OK, allowed.stderr);
      assert.doesNotMatch(allowed.stderr, /not walked/);
    });
  }

  it('archive names the WARC it wrote', async () => {
    const out = join(dir, 'named');
    const r = await anwc(['archive', web.url(HOST, '/'), '--out', out, ...common, '--allow-private']);
    assert.equal(r.code, EXIT.OK, r.stderr);
    assert.match(r.stderr, new RegExp(`WARC ${join(out, 'anwc.warc.gz').replace(/[./]/g, '\\$&')}`));
    assert.ok(existsSync(join(out, 'anwc.warc.gz')));
  });
});

describe('a root the server only answers "not now"', () => {
  it('map: a 429 through every retry is work not done, exit 1; a 404 root is an answer, exit 0', async () => {
    const run = (path: string) => anwc(['map', web.url(HOST, path), '--out', join(dir, `${path.slice(1)}.json`), '--max-retries', '0', ...common, '--allow-private']);
    const busy = await run('/busy.html');
    assert.equal(busy.code, EXIT.PROBLEMS, busy.stderr);
    assert.match(busy.stderr, /root http:\/\/127\.0\.0\.1:\d+\/busy\.html failed: the server answered HTTP 429/);
    const root = (JSON.parse(readFileSync(join(dir, 'busy.html.json'), 'utf8')) as { nodes: { url: string; state: string; status?: number }[] }).nodes[0]!;
    assert.deepEqual([root.url, root.state, root.status], [web.url(HOST, '/busy.html'), 'failed', 429], 'the root is failed in the map, not outside it');
    const gone = await run('/gone.html');
    assert.equal(gone.code, EXIT.OK, gone.stderr);
  });
});

describe('a harvest that reads no page', () => {
  /** A database whose frontier holds one root, as `anwc seed --provider file` leaves it. */
  async function seeded(name: string, root: string): Promise<string> {
    const folder = mkdtempSync(join(dir, `harvest-${name}-`));
    const db = `sqlite:${join(folder, 'h.sqlite')}`;
    const seedFile = join(folder, 'seeds.txt');
    writeFileSync(seedFile, `${root}\n`);
    assert.equal((await anwc(['import', resolve('ane-markup', 'sample.ane'), '--db', db])).code, EXIT.OK);
    const seed = await anwc(['seed', '--provider', 'file', '--seed-file', seedFile, '--meta', 'lighthouse', '--db', db]);
    assert.equal(seed.code, EXIT.OK, seed.stderr);
    return db;
  }
  const harvest = (db: string, ...more: string[]) => anwc(['harvest', '--db', db, '--max-retries', '0', ...common, ...more]);
  const said = /anwc: no page was read: every link this run took was refused, failed or put back .*--resolve HOST:ADDRESS or --allow-private/;

  it('its root refused by the address policy: exit 1 and the line that says so; with --allow-private, exit 0', async () => {
    const refused = await harvest(await seeded('refused', web.url(HOST, '/')));
    assert.equal(refused.code, EXIT.PROBLEMS, refused.stderr);
    assert.match(refused.stderr, said);
    const allowed = await harvest(await seeded('allowed', web.url(HOST, '/')), '--allow-private');
    assert.equal(allowed.code, EXIT.OK, allowed.stderr);
    assert.doesNotMatch(allowed.stderr, /no page was read/);
  });

  it('with --workers 2, judged on what all the workers read', async () => {
    const refused = await harvest(await seeded('workers-refused', web.url(HOST, '/')), '--workers', '2');
    assert.equal(refused.code, EXIT.PROBLEMS, refused.stderr);
    assert.match(refused.stderr, said);
    const allowed = await harvest(await seeded('workers-allowed', web.url(HOST, '/')), '--workers', '2', '--allow-private');
    assert.equal(allowed.code, EXIT.OK, allowed.stderr);
  });

  it('its server answering only 429: exit 1', async () => {
    const busy = await harvest(await seeded('busy', web.url(HOST, '/busy.html')), '--allow-private');
    assert.equal(busy.code, EXIT.PROBLEMS, busy.stderr);
    assert.match(busy.stderr, said);
  });
});
