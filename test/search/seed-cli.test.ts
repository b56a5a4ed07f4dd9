import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/store/open.js';
import { stem } from '../../src/text/stem.js';
import { corpus, startStandin, STANDIN_KEY, type Standin } from '../support/search-standins.js';

// The CLI as a user runs it: the built one under `npm test`, the source through tsx otherwise.
// Asynchronous, because the stand-in server answers from this very process.
const FROM_SOURCE = fileURLToPath(import.meta.url).endsWith('.ts');
const MAIN = FROM_SOURCE ? resolve('src', 'cli', 'main.ts') : resolve('dist', 'src', 'cli', 'main.js');
const NODE_ARGS = FROM_SOURCE ? ['--import', 'tsx', MAIN] : [MAIN];

function anwc(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [...NODE_ARGS, 'seed', ...args],
      { encoding: 'utf8', env: { ...process.env, ANWC_DEBUG: '', GOOGLE_API_KEY: '', GOOGLE_CSE_ID: '', ...env } },
      (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let dir = '';
let db = '';
const servers: Standin[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-seed-cli-'));
  db = `sqlite:${join(dir, 'story.sqlite')}`;
  const store = await openStore(db);
  await store.replaceMarkupFile({
    path: '/story/cli.ane',
    contentHash: 'v1',
    sections: [{
      name: null,
      attributes: {},
      nodes: [
        { text: 'A.', sentences: ['A.'], metaWords: ['sea', 'storm'].map((word) => ({ word, stem: stem(word) })) },
        { text: 'B.', sentences: ['B.'], metaWords: [{ word: 'whale', stem: stem('whale') }] },
      ],
    }],
  });
  await store.close();
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

test('anwc seed: progress per query and a summary; a second run asks nothing', async () => {
  const s = await startStandin('wikipedia', [...corpus(5, 'sea storm', 'a.example'), ...corpus(1, 'whale', 'b.example')]);
  servers.push(s);
  const r = await anwc(['--search-endpoint', s.url, '--per-query', '3', '--db', db, '--contact', 'mailto:ops@example.org']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      '2 meta sets, 2 to ask',
      'query 1/2 "sea storm" → 3 URLs',
      'query 2/2 "whale" → 1 URL',
      'wikipedia: 2 meta sets seeded by 2 queries: 4 URLs, 4 new to the frontier, 1 with fewer URLs than asked',
      '',
    ].join('\n'),
  );
  assert.equal(s.requests[0]!.headers['user-agent'], 'anwc/0.1 (+mailto:ops@example.org)');

  const again = await anwc(['--search-endpoint', s.url, '--db', db]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^2 meta sets, 0 to ask \(2 already searched with this provider; --all asks them again\)\n/);
  assert.equal(s.requests.length, 2);
});

test('anwc seed: a quota error prints the summary, one clear line, and exits 2', async () => {
  const s = await startStandin('google', corpus(5, 'sea storm whale'), { fault: 'quota', faultAfter: 1 });
  servers.push(s);
  const r = await anwc(['--provider', 'google', '--search-endpoint', s.url, '--per-query', '3', '--db', db, '--json'], { GOOGLE_API_KEY: STANDIN_KEY, GOOGLE_CSE_ID: 'cx-secret-1' });
  assert.equal(r.code, 2);
  const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(events.map((e) => e.event), ['plan', 'query', 'stopped', 'summary']);
  assert.equal(events[3]!.stoppedBy, 'quota');
  assert.equal(events[3]!.asked, 1);
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
  assert.match(r.stderr, /^anwc: google: the Custom Search query quota is spent; seeding stops here and keeps what it found/);
  assert.doesNotMatch(r.stdout + r.stderr, new RegExp(`${STANDIN_KEY}|cx-secret-1`));
});

test('anwc seed: bad flags and missing keys are one line and exit 2', async () => {
  const google = await anwc(['--provider', 'google', '--db', db]);
  assert.equal(google.code, 2);
  assert.match(google.stderr, /^anwc: the google provider needs GOOGLE_API_KEY and GOOGLE_CSE_ID in the environment; /);
  const searx = await anwc(['--provider', 'searxng', '--db', db]);
  assert.equal(searx.code, 2);
  assert.match(searx.stderr, /--search-endpoint/);
  const perQuery = await anwc(['--per-query', '0', '--db', db]);
  assert.equal(perQuery.code, 2);
  assert.match(perQuery.stderr, /--per-query is not valid/);
  const stray = await anwc(['--meta', 'sea', '--db', db]);
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /--seed-file and --meta belong to --provider file/);
  const file = join(dir, 'seeds.txt');
  writeFileSync(file, '# meta: sea\nhttps://ok.example/\nnot-a-url\n');
  const bad = await anwc(['--provider', 'file', '--seed-file', file, '--db', db]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, new RegExp(`^anwc: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:1: not an absolute URL`));
});

test('anwc import sample.ane && anwc seed fills the frontier with ranked seeds through every provider, and a rerun asks nothing', async () => {
  // Pages about each of the sample's themes, so that AND queries (widened when short) find some.
  const docs = ['sea lighthouse keeper night', 'storm waves ship sailor', 'letters bottle message stranger', 'garden roses summer', 'train station journey']
    .flatMap((words, i) => corpus(4, words, `site${i}.example`));
  const seedFile = join(dir, 'seeds.txt');
  writeFileSync(seedFile, '# meta: sea, storm\nhttps://site0.example/doc/1\nhttps://site1.example/doc/2\n');
  const keys = { GOOGLE_API_KEY: STANDIN_KEY, GOOGLE_CSE_ID: 'cx-standin', BRAVE_API_KEY: STANDIN_KEY };
  for (const provider of ['wikipedia', 'google', 'brave', 'searxng', 'file'] as const) {
    const sample = `sqlite:${join(dir, `sample-${provider}.sqlite`)}`;
    const imported = await new Promise<number>((done) =>
      execFile(process.execPath, [...NODE_ARGS, 'import', resolve('ane-markup', 'sample.ane'), '--db', sample], (err) => done(err ? 1 : 0)),
    );
    assert.equal(imported, 0);
    const s = provider === 'file' ? undefined : await startStandin(provider, docs, { key: STANDIN_KEY });
    if (s) servers.push(s);
    const args = ['--provider', provider, '--db', sample, ...(s ? ['--search-endpoint', s.url] : ['--seed-file', seedFile])];
    const first = await anwc(args, keys);
    assert.equal(first.code, 0, `${provider}: ${first.stderr}`);
    const store = await openStore(sample);
    try {
      const sum = await store.summary();
      assert.ok((sum.links.pending ?? 0) > 0, `${provider}: seeds in the frontier`);
      assert.ok(sum.queries > 0, `${provider}: queries stored`);
      // The first query of the run, its best result, and that result as a seed of the frontier.
      const query = (await store.searchQuery(1))!;
      assert.equal(query.provider, provider);
      assert.ok(query.results.length > 0, `${provider}: ranked results stored with the query`);
      const link = await store.linkByUrl(query.results[0]!);
      assert.ok(link && link.queryId === query.id && link.depth === 0, `${provider}: the best result is a seed tied to its query at depth 0`);
    } finally {
      await store.close();
    }
    const asked = s?.requests.length ?? 0;
    const again = await anwc(args, keys);
    assert.equal(again.code, 0, `${provider}: ${again.stderr}`);
    assert.match(again.stdout, / 0 to ask /, `${provider}: nothing new to ask`);
    assert.equal(s?.requests.length ?? 0, asked, `${provider}: the second seed sent no request`);
  }
});

test('google honours --resolve: a stand-in reached by a name the mapping sends to loopback', async () => {
  const s = await startStandin('google', corpus(5, 'sea storm whale'), { key: STANDIN_KEY });
  servers.push(s);
  const db = `sqlite:${join(dir, 'google-resolve.sqlite')}`;
  writeFileSync(join(dir, 'whale.ane'), '{\\section {\\node \\meta="sea, storm" {\\sen The sea and the storm were one that night.}}}\n');
  const imported = await new Promise<number>((done) =>
    execFile(process.execPath, [...NODE_ARGS, 'import', join(dir, 'whale.ane'), '--db', db], (err) => done(err ? 1 : 0)));
  assert.equal(imported, 0);
  const named = s.url.replace('127.0.0.1', 'google-standin.test');
  const keys = { GOOGLE_API_KEY: STANDIN_KEY, GOOGLE_CSE_ID: 'cx-standin' };
  const r = await anwc(['--provider', 'google', '--search-endpoint', named, '--resolve', 'google-standin.test:127.0.0.1', '--db', db], keys);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(s.requests.length > 0, 'the request went through the mapping to the stand-in');
  assert.match(r.stdout, /google: 1 meta set seeded/);
});
