import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Runs the built CLI, as a user would: `npm test` compiles to dist/ before running this file.
const MAIN = resolve(process.cwd(), 'dist', 'src', 'cli', 'main.js');
let dir = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-markup-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function anwc(...args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', cwd: dir });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

test('markup check: a good file prints ok with its counts and exits 0', () => {
  const good = write('good.ane', '{\\section \\id="a"\n  {\\node \\meta="sea" {\\sen The tide.}}\n}\n{\\node \\meta="b"}\n');
  const r = anwc('markup', 'check', good);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `${good}: ok (1 section, 2 nodes)\n`);
  assert.equal(r.stderr, '');
});

test('markup check: errors are file:line:col lines on stderr and the exit code is 2', () => {
  const good = write('fine.ane', '{\\node \\meta="a"}\n');
  const bad = write('bad.ane', '{\\section \\id="s"\n  {\\node \\meta {\\sen one}}\n  {\\sen lost}\n}}\n');
  const r = anwc('markup', 'check', good, bad);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, `${good}: ok (0 sections, 1 node)\n`);
  const lines = r.stderr.trimEnd().split('\n');
  assert.deepEqual(
    lines.map((l) => l.split(': ')[0]),
    [`${bad}:2:10`, `${bad}:3:3`, `${bad}:4:2`],
  );
  assert.match(lines[0]!, /`\\meta` needs a quoted value; write \\meta="word, word, word"$/);
  assert.match(lines[1]!, /`\{\\sen` outside a node/);
  assert.match(lines[2]!, /stray `\}`/);
});

test('markup check: an unreadable file is one clear line and exit 2', () => {
  const r = anwc('markup', 'check', 'missing.ane');
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'anwc: missing.ane: cannot read (no such file)\n');
});

test('markup check --json prints one object a line', () => {
  const bad = write('json.ane', '{\\node \\meta="a"\n');
  const r = anwc('markup', 'check', '--json', bad);
  assert.equal(r.code, 2);
  const e = JSON.parse(r.stderr.trim());
  assert.deepEqual([e.file, e.line, e.col, e.code], [bad, 1, 1, 'unclosed-group']);
});

test('markup fmt prints the canonical form, and refuses a file with errors', () => {
  const messy = write('messy.ane', '{\\node \\meta=" sea ,storm" {\\sen The\n   wind.}   {\\sen Rain.}}');
  const r = anwc('markup', 'fmt', messy);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '{\\node \\meta="sea, storm"\n  {\\sen The wind.}\n  {\\sen Rain.}\n}\n');
  const broken = write('broken.ane', '{\\node');
  const b = anwc('markup', 'fmt', broken);
  assert.equal(b.code, 2);
  assert.equal(b.stdout, '');
  assert.match(b.stderr, /broken\.ane:1:1: unclosed/);
});

test('a file that is not UTF-8 (Latin-1, a binary) is one line at its first such byte, exit 2, for check and import alike', () => {
  const latin1 = join(dir, 'latin1.ane');
  writeFileSync(latin1, Buffer.concat([Buffer.from('{\\node \\meta="sea"\n  {\\sen The caf'), Buffer.from([0xe9]), Buffer.from(' by the sea.}}\n')]));
  const binary = join(dir, 'binary.ane');
  writeFileSync(binary, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)));
  for (const [file, where] of [[latin1, 'latin1.ane:2:16'], [binary, 'binary.ane:1:']] as const) {
    for (const args of [['markup', 'check', file], ['import', file, '--db', `sqlite:${join(dir, 'utf.sqlite')}`]]) {
      const r = anwc(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0]!.includes(`${where}`) && /not UTF-8 text: byte 0x[0-9a-f]{2}/.test(lines[0]!), lines[0]);
    }
  }
});
