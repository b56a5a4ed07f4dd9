import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProvider, parseSeedFile } from '../../src/search/index.js';
import { DEFAULT_MAX_URL_LENGTH } from '../../src/web/url.js';
import { UserError } from '../../src/errors.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anwc-seedfile-'));
});
after(() => rm(dir, { recursive: true, force: true }));

const TEXT = [
  '# seeds for the sea story',
  'https://before.example/a   # takes --meta',
  '',
  '# meta: sea, storm',
  'https://one.example/wreck#p2',
  '  https://two.example/gale',
  '# meta: Storm, SEA',
  'https://three.example/',
  '# meta: "lighthouse keeper"',
  'https://four.example/',
  'https://two.example/gale',
].join('\n');

test('seed file: meta lines group the URLs below them; equal sets merge; --meta covers the top', () => {
  const groups = parseSeedFile(TEXT, 'seeds.txt', ['harbour']);
  assert.deepEqual(groups, [
    { words: ['harbour'], urls: ['https://before.example/a'] },
    { words: ['sea', 'storm'], urls: ['https://one.example/wreck#p2', 'https://two.example/gale', 'https://three.example/'] },
    { words: ['lighthouse keeper'], urls: ['https://four.example/', 'https://two.example/gale'] },
  ]);
});

test('seed file: bad lines are file:line:col user errors', () => {
  const at = (text: string, meta: string[] = []) => {
    try {
      parseSeedFile(text, 'seeds.txt', meta);
    } catch (e) {
      assert.ok(e instanceof UserError);
      return e.toLine();
    }
    assert.fail('no error');
  };
  assert.match(at('https://a.example/'), /^seeds\.txt:1:1: this URL has no meta words .*--meta/);
  assert.match(at('# meta: sea\n   not a url'), /^seeds\.txt:2:4: not an absolute URL \(got "not"\)|^seeds\.txt:2:7: one URL a line/);
  assert.match(at('# meta: sea\nhttps://a.example/ https://b.example/'), /^seeds\.txt:2:19: one URL a line/);
  assert.match(at('# meta: sea\nftp://a.example/'), /^seeds\.txt:2:1: only http and https/);
  assert.match(at('# meta:  ,'), /^seeds\.txt:1:1: a meta line names no words/);
  assert.match(at('# meta: sea\nnope'), /^seeds\.txt:2:1: not an absolute URL \(got "nope"\)/);
  assert.equal(at('# meta: sea\n  http://./'), 'seeds.txt:2:3: not a URL a crawl can fetch: no host name (got "http://./"); write it as http://host/path or https://host/path');
  const long = `http://a.example/${'x'.repeat(DEFAULT_MAX_URL_LENGTH)}`;
  assert.ok(at(`# meta: sea\n${long}`).startsWith(`seeds.txt:2:1: not a URL a crawl can fetch: ${long.length} characters, cap ${DEFAULT_MAX_URL_LENGTH} (got "http`));
});

test('file provider: brings its own queries and answers each with its URLs', async () => {
  const path = join(dir, 'seeds.txt');
  await writeFile(path, TEXT);
  const p = createProvider('file', { file: path, meta: ['harbour'] });
  assert.deepEqual(p.ownQueries?.().map((q) => q.words), [['harbour'], ['sea', 'storm'], ['lighthouse keeper']]);
  const r = await p.search({ words: ['STORM', 'sea'] }, { count: 2 });
  assert.deepEqual(r, [
    { url: 'https://one.example/wreck#p2', title: '', snippet: '', rank: 1 },
    { url: 'https://two.example/gale', title: '', snippet: '', rank: 2 },
  ]);
  assert.deepEqual(await p.search({ words: ['other'] }, { count: 10 }), []);
});

test('file provider: a missing file or flag is a user error', () => {
  assert.throws(() => createProvider('file', {}), /--seed-file/);
  assert.throws(() => createProvider('file', { file: join(dir, 'absent.txt') }), (e: unknown) => e instanceof UserError && /ENOENT/.test(e.message));
  assert.throws(() => createProvider('nope'), /unknown search provider/);
});
