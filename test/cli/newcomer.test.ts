import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXIT } from '../../src/cli/exit.js';
import { stem } from '../../src/text/stem.js';
import { anwc, CLI } from '../support/cli.js';

/**
 * What a newcomer met on a first afternoon with anwc (issue: never a false green), each as it
 * was met: a command that said nothing, said the wrong thing, or left something behind.
 */

let dir: string;
let db: string;
let server: Server;
let port: number;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-newcomer-'));
  db = `sqlite:${join(dir, 'story.sqlite')}`;
  assert.equal((await anwc(['import', resolve('ane-markup', 'sample.ane'), '--db', db])).code, EXIT.OK);
  server = createServer((_req, res) => res.end('<html><body><p>A page on loopback.</p></body></html>'));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as { port: number }).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

describe('a newcomer\'s first afternoon', () => {
  it('stem: each word of a line on stdin is stemmed, the line kept', () => {
    const r = spawnSync(process.execPath, [CLI, 'stem'], { input: 'the lighthouses running\nponies\n', encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${['the', 'lighthouses', 'running'].map(stem).join(' ')}\n${stem('ponies')}\n`);
  });

  it('pick --json on a word no node has still prints JSON, and exits 1', async () => {
    const r = await anwc(['pick', 'zebra', '--json', '--db', db]);
    assert.equal(r.code, EXIT.PROBLEMS);
    assert.deepEqual(JSON.parse(r.stdout), { word: 'zebra', stem: 'zebra', node: null, proportion: 0.5 });
  });

  it('export --meta with a word that is no meta word is one line and exit 2, not an empty success', async () => {
    const r = await anwc(['export', '--meta', 'zebra', '--db', db]);
    assert.equal(r.code, EXIT.USAGE);
    assert.equal(r.stdout, '');
    assert.match(r.stderr.trim(), /^anwc: --meta zebra: no meta word has the stem "zebra".*anwc keywords lists the meta words/);
  });

  it('export of a meta word without crawler nodes says there was nothing to export', async () => {
    const r = await anwc(['export', '--meta', 'lighthouse', '--origin', 'crawler', '--db', db]);
    assert.equal(r.code, EXIT.OK);
    assert.match(r.stderr, /no node to export \(origin crawler, meta lighthouse\)/);
  });

  it('fetch: an address the policy refuses is said to be refused, not disallowed by robots.txt', async () => {
    const url = `http://127.0.0.1:${port}/`;
    const refused = await anwc(['fetch', url]);
    assert.equal(refused.code, EXIT.PROBLEMS);
    assert.doesNotMatch(refused.stdout, /robots/i);
    assert.match(refused.stdout, /refused\s+the address is refused by this run's settings \(127\.0\.0\.1 is loopback\); a run with --resolve HOST:ADDRESS or --allow-private fetches it/);
    const allowed = await anwc(['fetch', url, '--allow-private']);
    assert.equal(allowed.code, EXIT.OK, allowed.stdout);
  });

  it('demo on a port already taken leaves no database behind', async () => {
    const file = join(dir, 'demo.sqlite');
    const r = await anwc(['demo', '--port', String(port), '--db', `sqlite:${file}`]);
    assert.equal(r.code, EXIT.USAGE);
    assert.match(r.stderr, /port \d+ on 127\.0\.0\.1 is taken/);
    assert.equal(existsSync(file), false);
  });

  it('import names every markup error markup check finds, not only the group left open around it', async () => {
    const file = join(dir, 'broken.ane');
    writeFileSync(file, '{\\section\n  {\\node \\meta="sea" {\\sen The sea was calm.}\n');
    const check = await anwc(['markup', 'check', file]);
    const imported = await anwc(['import', file, '--db', db]);
    assert.equal(imported.code, EXIT.USAGE);
    const found = (out: string) => [...out.matchAll(/broken\.ane:(\d+:\d+):/g)].map((m) => m[1]);
    assert.deepEqual(found(imported.stderr), found(check.stdout + check.stderr));
    assert.ok(found(imported.stderr).includes('2:3'), imported.stderr);
  });

  it('a mistyped flag is one line that names the flag anwc has', async () => {
    const r = await anwc(['harvest', '--max-page', '5', '--db', db]);
    assert.equal(r.code, EXIT.USAGE);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^anwc: unknown option --max-page; did you mean --max-pages/);
    assert.doesNotMatch(r.stderr, /maxPage/);
    const elsewhere = await anwc(['stats', '--hosts', 'a.test', '--db', db]);
    assert.equal(elsewhere.code, EXIT.USAGE);
    assert.match(elsewhere.stderr, /^anwc: unknown option --hosts; --hosts is not an option of this command/, 'a flag of another command is not offered as its own look-alike');
  });

  it('a flag typed without its value stops the run, where yargs would run it with no limit at all', async () => {
    const before = await anwc(['stats', '--db', db, '--json']);
    for (const [args, flag] of [
      [['harvest', '--db', db, '--max-pages'], '--max-pages'],
      [['harvest', '--max-pages', '--db', db], '--max-pages'],
      [['harvest', '--db', db, '--hosts', '--max-pages', '3'], '--hosts'],
      [['harvest', '--db', db, '--resolve'], '--resolve'],
    ] as const) {
      const r = await anwc([...args]);
      assert.equal(r.code, EXIT.USAGE, r.stderr);
      assert.equal(r.stderr, `anwc: ${flag} needs a value; put it after the flag; anwc harvest --help says what it takes\n`);
    }
    assert.equal((await anwc(['stats', '--db', db, '--json'])).stdout, before.stdout, 'nothing was walked or stored');
    // An empty value given as one is a value: it empties what a configuration file set.
    const emptied = await anwc(['map', `http://127.0.0.1:${port}/`, '--hosts', '', '--allow-private', '--max-pages', '1', '--progress', 'none']);
    assert.doesNotMatch(emptied.stderr, /needs a value/);
  });

  it('a mistyped command, a missing argument and a value outside the choices are each one line naming what to type', async () => {
    const typo = await anwc(['harves', '--db', db]);
    assert.equal(typo.code, EXIT.USAGE);
    assert.equal(typo.stderr, 'anwc: unknown command harves; did you mean harvest? anwc --help lists the commands\n');
    const unknown = await anwc(['bogus']);
    assert.equal(unknown.stderr, 'anwc: unknown command bogus; anwc --help lists the commands\n');
    const missing = await anwc(['map']);
    assert.equal(missing.code, EXIT.USAGE);
    assert.equal(missing.stderr, 'anwc: map needs <urls..>; see anwc map --help\n');
    const swallowed = await anwc(['map', '--bogus', 'http://a.test/']);
    assert.equal(swallowed.code, EXIT.USAGE);
    assert.equal(swallowed.stderr, 'anwc: map needs <urls..>; --bogus took http://a.test/ as its value; see anwc map --help\n', 'the flag that ate the argument is named');
    const choice = await anwc(['harvest', '--db', db, '--progress', 'off']);
    assert.equal(choice.code, EXIT.USAGE);
    assert.equal(choice.stderr, 'anwc: --progress takes one of auto, bar, json, none (got "off"); see anwc harvest --help\n');
    const stray = await anwc(['stats', '--db', db, 'extra']);
    assert.equal(stray.code, EXIT.USAGE);
    assert.equal(stray.stderr, 'anwc: unexpected argument extra; anwc stats --help shows what the command takes\n', 'a word is not named as a flag');
    const two = await anwc(['map', 'http://a.test/', '--format', 'json', '-o', 'x']);
    assert.equal(two.stderr, 'anwc: unknown options --format, -o; --format is not an option of this command; -o: did you mean --db, --out, --order? anwc map --help lists the options\n');
  });

  it('an unknown strategy in an activity file is reported at its own line:col', async () => {
    const file = join(dir, 'zigzag.w4');
    writeFileSync(file, '; a walk\n(define-activity zig\n  :strategy zigzag\n  :actions ((trace)))\n');
    const r = await anwc(['activity', 'check', file]);
    assert.equal(r.code, EXIT.USAGE);
    assert.match(r.stderr, /zigzag\.w4:3:13: unknown strategy zigzag; use one of roulette, bfs, dfs/);
  });

  it('relative paths in a configuration file are read from the file\'s folder, not the working directory', async () => {
    const project = mkdtempSync(join(dir, 'project-'));
    const elsewhere = mkdtempSync(join(dir, 'elsewhere-'));
    writeFileSync(join(project, 'anwc.config.json'), '{ "db": "sqlite:story.sqlite" }\n');
    const r = await anwc(['import', resolve('ane-markup', 'sample.ane'), '--config', join(project, 'anwc.config.json')], { cwd: elsewhere });
    assert.equal(r.code, EXIT.OK, r.stderr);
    assert.ok(existsSync(join(project, 'story.sqlite')));
    assert.equal(existsSync(join(elsewhere, 'story.sqlite')), false);
  });

  it('the studio\'s default uploads folder is ignored by git', () => {
    assert.ok(readFileSync('.gitignore', 'utf8').split('\n').includes('anwc-uploads/'));
  });
});
