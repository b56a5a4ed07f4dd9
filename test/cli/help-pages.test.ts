import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ABOUT } from '../../src/cli/commands/about.js';
import { FULL_CLI, helpPageName, storedHelp, TOP } from '../../src/cli/help-pages.js';
import { CLI } from '../support/cli.js';

/**
 * Help comes from pages the full CLI printed at build time (issue: speed): each must be what yargs
 * prints now, and a page older than the CLI, or a name that is not a page, goes to yargs.
 */

const dir = mkdtempSync(join(tmpdir(), 'anwc-help-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const print = (file: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [file, ...args, '--help'], { encoding: 'utf8', cwd: dir, env: { ...process.env, ...env } });

describe('help pages', () => {
  for (const name of [TOP, ...Object.keys(ABOUT)]) {
    const args = name === TOP ? [] : [name];
    it(`anwc ${[...args, '--help'].join(' ')} prints the page, and the page is what yargs prints`, () => {
      assert.ok(storedHelp(name) !== undefined, `no fresh page for ${name}: npm run build writes them`);
      const served = print(CLI, args);
      const live = print(FULL_CLI, args);
      assert.equal(live.status, 0, live.stderr);
      assert.deepEqual([served.status, served.stderr, served.stdout], [0, '', live.stdout]);
    });
  }

  it('only --help alone, or a command name and --help, asks for a page', () => {
    assert.equal(helpPageName(['--help']), TOP);
    assert.equal(helpPageName(['-h']), TOP);
    assert.equal(helpPageName(['harvest', '--help']), 'harvest');
    assert.equal(helpPageName(['why-node', '-h']), 'why-node');
    for (const args of [['harvest', '--help', '--db', 'x'], ['--help', 'harvest'], ['harvest'], ['../../etc/passwd', '--help'], ['Harvest', '--help'], []]) {
      assert.equal(helpPageName(args), undefined, args.join(' '));
    }
  });

  it('a page older than the CLI, or none, is not served', () => {
    const cli = join(dir, 'cli.js');
    writeFileSync(cli, '');
    writeFileSync(join(dir, 'stats.txt'), 'the stats page\n');
    utimesSync(cli, 1000, 1000);
    utimesSync(join(dir, 'stats.txt'), 2000, 2000);
    assert.equal(storedHelp('stats', dir, cli), 'the stats page\n');
    utimesSync(cli, 3000, 3000);
    assert.equal(storedHelp('stats', dir, cli), undefined);
    assert.equal(storedHelp('nosuch', dir, cli), undefined);
  });

  it('a word that names no page goes to the full CLI, which answers as before', () => {
    assert.equal(storedHelp('nosuchcommand'), undefined);
    const served = print(CLI, ['nosuchcommand']);
    const live = print(FULL_CLI, ['nosuchcommand']);
    assert.deepEqual([served.status, served.stdout, served.stderr], [live.status, live.stdout, live.stderr]);
  });

  it("help is in English whatever the locale: yargs' headings match our text", () => {
    const r = print(FULL_CLI, ['stats'], { LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' });
    assert.match(r.stdout, /^Options:$/m);
    assert.doesNotMatch(r.stdout, /Optionen/);
  });
});
