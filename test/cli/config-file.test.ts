import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anwcSync } from '../support/cli.js';

/** anwc.config.json and --config: any option of the table, flag > environment > file > default, errors at file:line:col. */

let dir: string;

const anwc = (args: string[], env: Record<string, string> = {}) => anwcSync(args, { cwd: dir, env });

const shown = (args: string[], env: Record<string, string> = {}) => JSON.parse(anwc(['config', 'show', '--json', ...args], env).stdout);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-config-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the configuration file', () => {
  it('anwc.config.json in the working directory sets options; flag and environment win over it', () => {
    writeFileSync(join(dir, 'anwc.config.json'), '{\n  "delay": 2,\n  "db": "sqlite:./from-file.sqlite",\n  "same-host": true,\n  "resolve": ["a.test:127.0.0.1"]\n}\n');
    const plain = shown([]);
    assert.equal(plain.delay.value, 2);
    assert.match(plain.delay.source, /^file .*anwc\.config\.json:2:12$/);
    assert.equal(plain['same-host'].value, true);
    assert.deepEqual(plain.resolve.value, ['a.test:127.0.0.1']);
    assert.equal(plain.db.value, `sqlite:${join(dir, 'from-file.sqlite')}`, 'read from the file\'s folder');
    assert.equal(plain.timeout.source, 'default');
    assert.deepEqual(shown(['--delay', '3']).delay, { value: 3, source: 'flag' });
    assert.deepEqual(shown([], { ANWC_DB: 'sqlite:./from-env.sqlite' }).db, { value: 'sqlite:./from-env.sqlite', source: 'env ANWC_DB' });
    const text = anwc(['config', 'show']).stdout;
    assert.match(text, /--delay\s+2\s+\(file .*anwc\.config\.json:2:12\)/);
    const stats = anwc(['stats']);
    assert.ok(stats.stderr.includes(`no anwc database at ${join(dir, 'from-file.sqlite')}`), `commands use the value from the file: ${stats.stderr}`);
    rmSync(join(dir, 'anwc.config.json'));
  });

  it('a file saved with a BOM reads as without one, positions as an editor shows them', () => {
    writeFileSync(join(dir, 'anwc.config.json'), '\ufeff{"delay": 2}\n');
    const read = shown([]);
    assert.equal(read.delay.value, 2);
    assert.match(read.delay.source, /anwc\.config\.json:1:11$/);
    rmSync(join(dir, 'anwc.config.json'));
  });

  it('every option of the table follows the file, also those a command reads for itself; a flag still wins', () => {
    writeFileSync(join(dir, 'page.html'), '<p>The keeper climbed the stairs of the old lighthouse every evening, and he lit the lamp. <a href="/a">Read about the keepers of the northern coast and their nights</a>.</p>');
    writeFileSync(join(dir, 'extract.json'), '{"json": true, "max-link-density": 0.2}');
    const fromFile = anwc(['extract', 'page.html', '--config', 'extract.json']);
    const block = JSON.parse(fromFile.stdout.split('\n')[0]!);
    assert.equal(block.accepted, false);
    assert.ok(block.reasons.some((r: { rule: string }) => r.rule === 'link-density'), fromFile.stdout);
    const flags = anwc(['extract', 'page.html', '--config', 'extract.json', '--no-json', '--max-link-density', '0.9']);
    assert.match(flags.stdout, /^ACCEPT p#0/);
    assert.match(anwc(['config', 'show', '--config', 'extract.json']).stdout, /^\{"db":/, 'config show itself prints JSON');
  });

  it('--config names another file; a missing one is an error', () => {
    writeFileSync(join(dir, 'crawl.json'), '{"max-retries": 5}');
    const r = shown(['--config', 'crawl.json'])['max-retries'];
    assert.equal(r.value, 5);
    assert.match(r.source, /^file .*crawl\.json:1:17$/);
    const missing = anwc(['config', 'show', '--config', 'nope.json']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^anwc: nope\.json: cannot read the configuration file \(ENOENT\)/);
  });

  it('an unknown key or a bad value is one line at file:line:col and exit 2', () => {
    const cases: [string, RegExp][] = [
      ['{\n  "delay": 2,\n  "dealy": 3\n}', /^anwc: bad\.json:3:3: unknown option dealy; did you mean delay\?$/],
      ['{\n  "timeout": 99999\n}', /^anwc: bad\.json:2:14: timeout is not valid \(got 99999\); give seconds above 0 and at most 3,600$/],
      ['{"delay": "two"}', /^anwc: bad\.json:1:11: delay takes a number; write a number without quotes$/],
      ['{"strategy": "random"}', /^anwc: bad\.json:1:14: strategy is not one of roulette, bfs, dfs/],
      ['[1, 2]', /^anwc: bad\.json:1:1: the configuration is not a JSON object/],
      ['{"delay": 2', /^anwc: bad\.json:1:12: /],
    ];
    for (const [text, pattern] of cases) {
      writeFileSync(join(dir, 'bad.json'), text);
      const r = anwc(['stats', '--config', 'bad.json']);
      assert.equal(r.code, 2, text);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr.trim(), pattern);
    }
  });
});
