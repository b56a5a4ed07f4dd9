import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

// npm test builds dist/ with tsc before running, and runs from the project root.
const MAIN = resolve(process.cwd(), 'dist/src/cli/main.js');

let dir: string;
let db: string;
const anwc = (...args: string[]) =>
  spawnSync(process.execPath, [MAIN, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, ANWC_DEBUG: '', ANWC_DB: '' } });
const withDb = (...args: string[]) => anwc(...args, '--db', db);

const GOOD = String.raw`{\section \id="begin"
  {\node \meta="start, begin" {\sen I am revisiting a reading error.} {\sen The machine demands language.}}
  {\node \meta="vision, blindness" {\sen But what could this new loss of vision reveal?}}
}
`;
const BAD = String.raw`{\section
  {\node \meta="broken" {\sen This sentence never ends.}
}
`;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-cli-store-'));
  db = `sqlite:${join(dir, 'anwc.sqlite')}`;
  writeFileSync(join(dir, 'good.ane'), GOOD);
  writeFileSync(join(dir, 'bad.ane'), BAD);
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('anwc import, keywords, mix, pick, export', () => {
  it('imports the good file, reports the bad one at file:line:col, and exits 2', () => {
    const r = withDb('import', 'bad.ane', 'good.ane');
    assert.equal(r.status, 2, r.stderr);
    const errors = r.stderr.trimEnd().split('\n');
    assert.equal(errors.length, 1, r.stderr);
    assert.match(errors[0]!, /^anwc: bad\.ane:1:1: unclosed `\{\\section`/);
    assert.match(r.stdout, /^good\.ane: imported 2 node\(s\), 2 new$/m);
    assert.match(r.stdout, /^new meta words to seed: begin, blindness, start, vision$/m);
    assert.doesNotMatch(r.stdout, /broken/);
  });

  it('is idempotent, and an edited file replaces its nodes', () => {
    const again = withDb('import', 'good.ane');
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^good\.ane: unchanged since the last import \(2 node\(s\)\)$/m);
    writeFileSync(join(dir, 'good.ane'), GOOD.replace('reveal?', 'reveal to you?'));
    const edited = withDb('import', 'good.ane');
    assert.equal(edited.status, 0, edited.stderr);
    assert.match(edited.stdout, /^good\.ane: updated, 2 node\(s\), 1 new, 1 removed$/m);
  });

  it('lists the meta words and when they were searched', () => {
    const r = withDb('keywords', '--json');
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(rows.map((x) => [x.word, x.stem, x.nodes, x.lastSearched]), [
      ['begin', 'begin', 1, null], ['blindness', 'blind', 1, null], ['start', 'start', 1, null], ['vision', 'vision', 1, null],
    ]);
    const text = withDb('keywords', '--pending');
    assert.match(text.stdout, /^word +stem +nodes +last searched$/m);
    assert.match(text.stdout, /^blindness +blind +1 +never$/m);
  });

  it('shows and sets the mix, refusing a value outside 0 to 1', () => {
    assert.match(withDb('mix').stdout, /^proportion_of_crawler_node = 0\.5 \(default/);
    const set = withDb('mix', '0.3');
    assert.equal(set.status, 0, set.stderr);
    assert.equal(set.stdout, 'proportion_of_crawler_node = 0.3 (was 0.5, the default)\n');
    for (const bad of ['1.5', 'half']) {
      const r = withDb('mix', bad);
      assert.equal(r.status, 2);
      assert.equal(r.stderr, `anwc: the proportion of crawler nodes must be a number from 0 to 1 (got "${bad}"); e.g. anwc mix 0.3 (0: author nodes only, 1: crawler nodes only)\n`);
    }
    assert.match(withDb('mix', '--json').stdout, /"proportion_of_crawler_node":0\.3,"source":"setting"/);
  });

  it('picks a node for a word, the same one for the same seed; exit 1 when none is linked', () => {
    const a = withDb('pick', 'beginning', '--seed', '7', '--json');
    assert.equal(a.status, 0, a.stderr);
    const node = JSON.parse(a.stdout);
    assert.deepEqual([node.origin, node.stem, node.text], ['author', 'begin', 'I am revisiting a reading error. The machine demands language.']);
    assert.equal(withDb('pick', 'beginning', '--seed', '7', '--json').stdout, a.stdout);
    const none = withDb('pick', 'unicorn');
    assert.equal(none.status, 1);
    assert.match(none.stderr, /^anwc: no node is linked to "unicorn" \(stem "unicorn"\)/);
  });

  it('exports markup that imports back, and CSV to a file', () => {
    const ane = withDb('export');
    assert.equal(ane.status, 0, ane.stderr);
    assert.match(ane.stdout, /\{\\node \\meta="start, begin"/);
    writeFileSync(join(dir, 'export.ane'), ane.stdout);
    const other = `sqlite:${join(dir, 'other.sqlite')}`;
    const back = anwc('import', 'export.ane', '--db', other);
    assert.equal(back.status, 0, back.stderr);
    assert.match(back.stdout, /imported 2 node\(s\), 2 new/);

    const csv = withDb('export', '--format', 'csv', '--meta', 'vision', '--out', 'v.csv');
    assert.equal(csv.status, 0, csv.stderr);
    assert.equal(csv.stderr, 'exported 1 node(s) to v.csv\n');
    const lines = readFileSync(join(dir, 'v.csv'), 'utf8').split('\r\n');
    assert.equal(lines[0], 'id,origin,meta,text,source_url,relevance,created');
    assert.match(lines[1]!, /^\d+,author,"vision, blindness",But what could this new loss of vision reveal to you\?,,,\d{4}-/);
  });

  it('refuses a malformed --db and an unreachable MySQL in one line, exit 2', () => {
    const bad = anwc('keywords', '--db', 'postgres://x/y');
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr,
      'anwc: --db is not a database address (got "postgres://x/y"); give sqlite:PATH (or sqlite::memory:) or mysql://user:pass@host:port/db (several servers as host1:port,host2:port; a local server\'s socket as ?socket=PATH)\n');
    const down = anwc('import', 'good.ane', '--db', 'mysql://root@127.0.0.1:1/anwc');
    assert.equal(down.status, 2);
    assert.match(down.stderr, /^anwc: cannot connect to MySQL at 127\.0\.0\.1:1 \(ECONNREFUSED\); is the server running\?; start it .*\n$/);
  });

  it('takes the database from ANWC_DB when --db is not given', () => {
    const r = spawnSync(process.execPath, [MAIN, 'mix'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ANWC_DB: db } });
    assert.match(r.stdout, /= 0\.3$/m);
  });
});
