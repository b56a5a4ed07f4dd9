import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Runs the built CLI, as a user would: `npm test` compiles to dist/ before running this file.
const MAIN = resolve(process.cwd(), 'dist', 'src', 'cli', 'main.js');
const anwc = (args: string[]) =>
  spawnSync(process.execPath, [MAIN, 'robots', ...args], { encoding: 'utf8', env: { ...process.env, ANWC_DEBUG: '' } });

let dir = '';
let robots = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-robots-'));
  robots = join(dir, 'robots.txt');
  writeFileSync(robots, 'User-agent: *\nDisallow: /\n\nUser-agent: anwc\nDisallow: /private\nAllow: /public\n');
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('prints each URL with the deciding rule and its line; exit 1 when any is disallowed', () => {
  const r = anwc([robots, 'anwc/0.1 (+https://example.org/anwc)', 'https://e.org/public/a', 'https://e.org/private/b', 'https://e.org/other']);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stdout,
    [
      'ALLOWED    https://e.org/public/a  (allow: /public at line 6)',
      'DISALLOWED https://e.org/private/b  (disallow: /private at line 5)',
      'ALLOWED    https://e.org/other  (no rule matched)',
      '',
    ].join('\n'),
  );
});

test('exit 0 when every URL is allowed; another token falls back to the * group', () => {
  const mine = anwc([robots, 'anwc', 'https://e.org/public/a', 'https://e.org/robots.txt']);
  assert.equal(mine.status, 0, mine.stderr);
  assert.match(mine.stdout, /^ALLOWED {4}https:\/\/e\.org\/robots\.txt {2}\(\/robots\.txt is always allowed\)$/m);
  const other = anwc([robots, 'otherbot', 'https://e.org/public/a']);
  assert.equal(other.status, 1);
  assert.equal(other.stdout, 'DISALLOWED https://e.org/public/a  (disallow: / at line 2)\n');
});

test('--json prints one object a line', () => {
  const r = anwc(['--json', robots, 'anwc', 'https://e.org/private/b']);
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    url: 'https://e.org/private/b',
    allowed: false,
    rule: { line: 5, directive: 'disallow', pattern: '/private' },
    reason: 'disallow: /private at line 5',
  });
});

test('an unreadable file, a bad URL or a bad token: one line on stderr, exit 2', () => {
  const cases: [string[], RegExp][] = [
    [[join(dir, 'missing.txt'), 'anwc', 'https://e.org/'], /missing\.txt: cannot read: no such file/],
    [[dir, 'anwc', 'https://e.org/'], /cannot read: is a directory/],
    [[robots, 'anwc', 'e.org/page'], /not an absolute URL \(got "e\.org\/page"\)/],
    [[robots, 'anwc', 'ftp://e.org/x'], /only governs http and https/],
    [[robots, '2bot', 'https://e.org/'], /not a product token/],
  ];
  for (const [args, message] of cases) {
    const r = anwc(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, message);
  }
});
