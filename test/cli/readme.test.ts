import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ABOUT } from '../../src/cli/commands/index.js';
import { EXIT } from '../../src/cli/exit.js';
import { VERSION } from '../../src/version.js';

const root = process.cwd();
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const cli = resolve(root, 'dist/src/cli/main.js');

/** The first word of each command's usage: `why <url>` → `why`. */
const names = Object.values(ABOUT).map((c) => c.command.split(' ')[0]!);

function section(title: string): string {
  const start = readme.indexOf(`${title}\n`);
  assert.ok(start >= 0, `README has a "${title}" section`);
  const next = readme.indexOf('\n#', start + title.length + 1);
  return readme.slice(start, next < 0 ? undefined : next);
}

test('the README command table lists exactly the commands of the CLI', () => {
  const table = section('## Commands');
  const listed = [...table.matchAll(/^\| `anwc ([a-z-]+)/gm)].map((m) => m[1]);
  assert.deepEqual([...listed].sort(), [...names].sort());
});

test('anwc --help lists every command', () => {
  const r = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  for (const n of names) assert.match(r.stdout, new RegExp(`anwc ${n}\\b`), n);
});

test('help wraps between words: each command says what it does, whole, in its own --help', () => {
  for (const [name, about] of Object.entries(ABOUT)) {
    const r = spawnSync(process.execPath, [cli, name, '--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, name);
    assert.ok(r.stdout.replace(/\s+/g, ' ').includes(about.describe), `${name}: ${r.stdout}`);
  }
});

test('the README exit-code table is the CLI exit-code table', () => {
  const table = section('### Exit codes');
  const codes = [...table.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
  assert.deepEqual(codes.sort((a, b) => a - b), Object.values(EXIT).sort((a, b) => a - b));
});

test('the version the CLI prints is the package version', () => {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
  const r = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8' });
  assert.equal(r.stdout.trim(), pkg.version);
});

test('a bad flag is one line and exit 2, never a stack trace', () => {
  for (const args of [['harvest', '--strategy', 'zigzag'], ['harvest', '--max-pages', '0'], ['harvest', '--keep', 'some'], ['why-node', 'x'], ['why-node', '0'], ['nosuchcommand'], ['stats', '--db', 'postgres://x']]) {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});
