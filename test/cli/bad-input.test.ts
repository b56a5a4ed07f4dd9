import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import mysql from 'mysql2/promise';
import { openStore } from '../../src/store/open.js';
import { anwcSync } from '../support/cli.js';
import { MYSQL_BASE, uniqueName } from '../support/db.js';

/**
 * Bad input that once failed silently or with a stack trace: each ends in one line and exit 2,
 * and what was stored before is still there.
 */

const anwc = (args: string[]) => anwcSync(args);

/** Exit 2 and exactly one line on stderr, starting "anwc: ", with no stack frame. */
function oneLine(r: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^anwc: /);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.match(lines[0]!, pattern);
}

/** Every command that only reads the database: none may create one. */
const READ_ONLY = ['stats', 'why http://x.test/', 'keywords', 'export', 'pick sea', 'mix', 'maintain --nodes'];

let dir: string;
let db: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-bad-'));
  db = `sqlite:${join(dir, 'kept.sqlite')}`;
  const store = await openStore(db);
  await store.addLinks([{ url: 'http://kept.test/a.html', host: 'kept.test', depth: 0 }]);
  await store.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function stillPending(): Promise<void> {
  const store = await openStore(db);
  try {
    assert.equal((await store.linkByUrl('http://kept.test/a.html'))!.status, 'pending', 'the frontier is untouched');
  } finally {
    await store.close();
  }
}

describe('durations and sizes are checked against their range before anything runs', () => {
  for (const [flag, value, pattern] of [
    ['--timeout', '2147484', /--timeout is not valid \(got "2147484"\); give seconds above 0 and at most 3,600/],
    ['--timeout', '0', /--timeout is not valid/],
    ['--lease', '1e12', /--lease is not valid/],
    ['--delay', '-1', /--delay is not valid.*from 0 to 3,600/],
    ['--max-time', '3e9', /--max-time is not valid/],
    ['--max-bytes', '1e9', /--max-bytes is not valid.*from 1 to 268435456 \(256 MiB\)/],
  ] as const) {
    it(`harvest ${flag} ${value}`, async () => {
      oneLine(anwc(['harvest', '--db', db, flag, value]), pattern);
      await stillPending();
    });
  }

  it('seed --search-timeout 1e9', () => {
    oneLine(anwc(['seed', '--db', db, '--search-timeout', '1e9']), /--search-timeout is not valid.*at most 600/);
  });
});

describe('files and databases', () => {
  it('export --out naming a folder', () => {
    const folder = join(dir, 'out');
    mkdirSync(folder);
    oneLine(anwc(['export', '--db', db, '--out', folder]), /--out names a folder .*give a file name/);
  });

  it('markup nested past the limit is one error at its place, never a stack overflow', () => {
    const file = join(dir, 'deep.ane');
    writeFileSync(file, `${'{\\foo '.repeat(20_000)}x${'}'.repeat(20_000)}`);
    for (const cmd of [['markup', 'fmt', file], ['markup', 'check', file], ['import', '--db', db, file]]) {
      const r = anwc(cmd);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /deep\.ane:1:601: groups nested deeper than 100/);
      assert.doesNotMatch(r.stderr, /call stack|internal error/);
    }
  });

  it('an emptied markup file is refused and its nodes kept; --replace deletes them on purpose', () => {
    const file = join(dir, 'story.ane');
    writeFileSync(file, '{\\section {\\node \\meta="sea" {\\sen The sea was calm that night.}}}\n');
    assert.equal(anwc(['import', '--db', db, file]).code, 0);
    writeFileSync(file, '');
    oneLine(anwc(['import', '--db', db, file]), /story\.ane: the file now holds no node; .*rerun with --replace/);
    assert.match(anwc(['export', '--db', db, '--origin', 'author']).stdout, /The sea was calm/);
    assert.equal(anwc(['import', '--db', db, '--replace', file]).code, 0);
    assert.doesNotMatch(anwc(['export', '--db', db, '--origin', 'author']).stdout, /The sea was calm/);
  });

  it('a seed file whose meta word is spelled otherwise than the store\'s, with the same stem, still seeds', () => {
    const seeded = `sqlite:${join(dir, 'seeded.sqlite')}`;
    const story = join(dir, 'storms.ane');
    writeFileSync(story, '{\\section {\\node \\meta="Storms" {\\sen The storms came in from the west.}}}\n');
    assert.equal(anwc(['import', '--db', seeded, story]).code, 0);
    const seeds = join(dir, 'seeds.txt');
    writeFileSync(seeds, '# meta: storm\nhttp://storm.test/one.html\n');
    const r = anwc(['seed', '--db', seeded, '--provider', 'file', '--seed-file', seeds]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(anwc(['stats', '--db', seeded]).stdout, /pending\s+1/);
  });

  it('a file that is not a SQLite database', () => {
    const file = join(dir, 'garbage.sqlite');
    writeFileSync(file, 'this is no database, just text that goes on for a while '.repeat(100));
    oneLine(anwc(['stats', '--db', `sqlite:${file}`]), /garbage\.sqlite is not a SQLite database/);
  });

  it('a command that only reads, on a SQLite file that does not exist, says so and creates nothing', () => {
    const missing = join(dir, 'missing.sqlite');
    for (const cmd of READ_ONLY) {
      oneLine(anwc([...cmd.split(' '), '--db', `sqlite:${missing}`]), /no anwc database at .*missing\.sqlite/);
      assert.equal(existsSync(missing), false, `${cmd} created it`);
    }
  });

  it('a command that only reads, on a MySQL database that does not exist, says so and creates nothing', { skip: process.env.ANWC_TEST_MYSQL === 'off' }, async () => {
    const name = uniqueName('anwc_missing');
    const url = new URL(MYSQL_BASE);
    url.pathname = `/${name}`;
    for (const cmd of READ_ONLY) {
      oneLine(anwc([...cmd.split(' '), '--db', url.toString()]), new RegExp(`no database ${name} on MySQL`));
    }
    const c = await mysql.createConnection(MYSQL_BASE);
    try {
      const [rows] = await c.query('SHOW DATABASES LIKE ?', [name]);
      assert.equal((rows as unknown[]).length, 0, 'not created');
    } finally {
      await c.end();
    }
  });
});

describe('control bytes a file holds are shown escaped, never sent to the terminal', () => {
  /** Each line of stderr (one an error) holds no control character. */
  const printable = (r: { code: number | null; stderr: string }, shown: string[]) => {
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /\n$/);
    for (const line of r.stderr.slice(0, -1).split('\n')) assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f]/, JSON.stringify(r.stderr));
    for (const s of shown) assert.ok(r.stderr.includes(s), `${JSON.stringify(r.stderr)} lacks ${s}`);
  };

  it('in an instruction file of anwc maintain', () => {
    const file = join(dir, 'tasks.mom');
    writeFileSync(file, '<Tree\n  Na\u0000me\u001b[31mX y\n>\n');
    const r = anwc(['maintain', file, '--db', db]);
    printable(r, ['tasks.mom:2:3: a task has no Na\\x00me\\x1b[31mX ']);
    assert.equal(r.stderr.split('\n').length, 2, 'one line');
  });

  it('in a markup file, by markup check and by import', () => {
    const file = join(dir, 'controls.ane');
    writeFileSync(file, '{\\section {\\node \\meta="sea" {\\sen The sea \\\u001b[31m was \\\u0000 red.}}}\n');
    printable(anwc(['markup', 'check', file]), ['controls.ane:1:44: unknown escape `\\\\x1b`', 'controls.ane:1:55: unknown escape `\\\\x00`']);
    printable(anwc(['import', '--db', db, file]), ['controls.ane:1:44: unknown escape `\\\\x1b`']);
  });

  it('a line break in a file name stays in the one line', () => {
    const r = anwc(['maintain', join(dir, 'no\nsuch\u001b]0;title\u0007.mom'), '--db', db]);
    printable(r, ['no\\nsuch\\x1b]0;title\\x07.mom']);
    assert.equal(r.stderr.split('\n').length, 2, 'one line');
  });
});

describe('a number flag given something else', () => {
  it('names what was typed, spaced or with =', () => {
    oneLine(anwc(['harvest', '--delay', 'soon']), /^anwc: --delay needs a number \(got "soon"\); see anwc harvest --help$/);
    oneLine(anwc(['harvest', '--heap-budget=lots']), /^anwc: --heap-budget needs a number \(got "lots"\)/);
  });
});
