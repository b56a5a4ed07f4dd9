import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

  it('anwc stats on a SQLite file loads its driver and nothing else of the list', async () => {
    const db = `sqlite:${join(dir, 'stats.sqlite')}`;
    assert.equal((await anwc(['import', resolve('ane-markup', 'sample.ane'), '--db', db])).code, 0);
    const loads = await loadsOf(['stats', '--db', db]);
    assert.ok(loads.some((u) => /\/node_modules\/better-sqlite3\//.test(u)), 'the SQLite driver');
    assert.deepEqual(heavyIn(loads, ['the SQLite driver']), []);
  });
});
