import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { anwc } from '../support/cli.js';

/**
 * No command loads what it does not use (issue: speed): the crawler, the HTML parser, the HTTP
 * client, the DNS resolver, the database drivers and the search providers each cost a start their
 * command does not need. Each command runs with the modules it imports written down (support/load-trace.ts).
 */

const TRACER = pathToFileURL(resolve('dist', 'test', 'support', 'load-trace.js')).href;
const dir = mkdtempSync(join(tmpdir(), 'anwc-loads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
async function loadsOf(args: string[]): Promise<string[]> {
  const file = join(dir, `loads-${runs++}.txt`);
  const r = await anwc(args, { env: { ANWC_TEST_LOADS: file, NODE_OPTIONS: `--import=${TRACER}` } });
  assert.equal(r.code, 0, r.stderr);
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
}

const HEAVY: [string, RegExp][] = [
  ['the crawler', /\/dist\/src\/(walk\/engine|harvest\/harvest)\.js$/],
  ['the HTML parser', /\/node_modules\/node-html-parser\//],
  ['the HTTP client', /\/node_modules\/undici\//],
  ['the DNS resolver', /^node:dns/],
  ['the MySQL driver', /\/node_modules\/mysql2\//],
  ['the SQLite driver', /\/node_modules\/better-sqlite3\//],
  ['a search provider', /\/node_modules\/@googleapis\/|\/dist\/src\/search\/(brave|google|searxng|wikipedia|http)\.js$/],
];

function heavyIn(loads: string[], except: string[] = []): string[] {
  return HEAVY.filter(([name, re]) => !except.includes(name) && loads.some((u) => re.test(u))).map(([name]) => name);
}

describe('what a command loads', () => {
  for (const args of [['--version'], ['--help'], ['stem', 'walking'], ['harvest', '--help']]) {
    it(`anwc ${args.join(' ')} loads none of the crawler, the parser, the HTTP client, the drivers or the providers`, async () => {
      const loads = await loadsOf(args);
      // The trace saw the CLI itself, so an empty trace cannot pass.
      assert.ok(loads.some((u) => u.endsWith('/dist/src/cli/main.js')), loads.join('\n'));
      assert.deepEqual(heavyIn(loads), []);
    });
  }

  for (const args of [['--version'], ['stem', 'walking', 'lighthouses'], ['--help'], ['harvest', '--help']]) {
    it(`anwc ${args.join(' ')} loads neither yargs nor the option table: the entry answers it alone`, async () => {
      const loads = await loadsOf(args);
      assert.ok(loads.some((u) => u.endsWith('/dist/src/cli/main.js')), loads.join('\n'));
      assert.deepEqual(loads.filter((u) => /\/node_modules\/yargs|\/dist\/src\/cli\/(cli|options)\.js$/.test(u)), []);
    });
  }

  it('anwc stem answers as the full CLI does, and leaves a flag or a configuration file to it', async () => {
    const fast = await anwc(['stem', 'walking', 'the lighthouses running']);
    assert.deepEqual([fast.code, fast.stdout], [0, 'walk\nthe lighthous run\n']);
    const help = await anwc(['stem', '--help']);
    assert.deepEqual([help.code, help.stdout.startsWith('anwc stem [words..]')], [0, true]);
    // The full CLI checks a configuration file in the folder before any command, stem included.
    const folder = mkdtempSync(join(dir, 'config-'));
    writeFileSync(join(folder, 'anwc.config.json'), '{"delay": "x"}');
    const checked = await anwc(['stem', 'walking'], { cwd: folder });
    assert.equal(checked.code, 2);
    assert.match(checked.stderr, /anwc\.config\.json:1:11: delay takes a number/);
  });

  it('anwc stats on a SQLite file loads its driver and nothing else of the list', async () => {
    const db = `sqlite:${join(dir, 'stats.sqlite')}`;
    assert.equal((await anwc(['import', resolve('ane-markup', 'sample.ane'), '--db', db])).code, 0);
    const loads = await loadsOf(['stats', '--db', db]);
    assert.ok(loads.some((u) => /\/node_modules\/better-sqlite3\//.test(u)), 'the SQLite driver');
    assert.deepEqual(heavyIn(loads, ['the SQLite driver']), []);
  });
});
