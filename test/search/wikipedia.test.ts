import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { articleUrl, createProvider, DEFAULT_USER_AGENT, SearchAuthError, SearchQuotaError, SearchResponseError, SearchUnavailableError, wikiHost } from '../../src/search/index.js';
import { UserError } from '../../src/errors.js';
import { corpus, startStandin, type Standin, type StandinDoc } from '../support/search-standins.js';

const docs: StandinDoc[] = [
  ...corpus(12, 'sea storm'),
  { url: 'x', title: "Ahab's whale: a study, part 1/2", text: 'sea storm whale' },
  { url: 'x', title: 'Re:Zero', text: 'storm tale' },
];
const servers: Standin[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function wiki(opts: Parameters<typeof startStandin>[2] = {}, config: Record<string, unknown> = {}) {
  const s = await startStandin('wikipedia', docs, opts);
  servers.push(s);
  return { s, p: createProvider('wikipedia', { endpoint: s.url, timeoutMs: 2000, ...config }) };
}

test('wikipedia: asks list=search with formatversion=2 and a User-Agent, and builds article URLs', async () => {
  const { s, p } = await wiki();
  const r = await p.search({ words: ['sea', 'storm', 'whale'] }, { count: 10 });
  assert.equal(r.length, 1);
  assert.equal(r[0]!.url, `${s.url}wiki/Ahab%27s_whale:_a_study,_part_1/2`);
  assert.equal(r[0]!.title, "Ahab's whale: a study, part 1/2");
  const q = s.requests[0]!;
  assert.equal(q.path, '/w/api.php');
  assert.equal(q.params.get('srsearch'), 'sea storm whale');
  assert.equal(q.params.get('formatversion'), '2');
  assert.equal(q.params.get('srlimit'), '10');
  assert.equal(q.headers['user-agent'], DEFAULT_USER_AGENT);
});

test('wikipedia: snippets lose the searchmatch markup and entities', async () => {
  const { p } = await wiki();
  const [first] = await p.search({ words: ['sea'] }, { count: 1 });
  assert.ok(first);
  assert.doesNotMatch(first.snippet, /<span|&amp;/);
  assert.match(first.snippet, /^sea storm/);
});

test('wikipedia: follows continue.sroffset and sends the continue object back', async () => {
  const { s, p } = await wiki({ pageSize: 5 });
  const r = await p.search({ words: ['storm'] }, { count: 12 });
  assert.equal(r.length, 12);
  assert.deepEqual(r.map((x) => x.rank), Array.from({ length: 12 }, (_, i) => i + 1));
  assert.deepEqual(s.requests.map((q) => q.params.get('sroffset')), [null, '5', '10']);
  assert.equal(s.requests[1]!.params.get('continue'), '-||');
  assert.equal(new Set(r.map((x) => x.url)).size, 12);
});

test('wikipedia: zero hits is an empty list, one request', async () => {
  const { s, p } = await wiki();
  assert.deepEqual(await p.search({ words: ['absent'] }, { count: 10 }), []);
  assert.equal(s.requests.length, 1);
});

test('wikipedia: a maxlag error (HTTP 200) is waited out and asked again', async () => {
  const { s, p } = await wiki({ fault: 'maxlag-once' });
  const r = await p.search({ words: ['whale'] }, { count: 10 });
  assert.equal(r.length, 1);
  assert.equal(s.requests.length, 2);
  assert.equal(s.requests[0]!.params.get('maxlag'), '5');
});

test('wikipedia: ratelimited is a quota error', async () => {
  const { p } = await wiki({ fault: 'quota' });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), SearchQuotaError);
});

test('wikipedia: an empty User-Agent meets the 403 of the policy, explained', async () => {
  const { p } = await wiki({}, { userAgent: '' });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), (e: unknown) => {
    assert.ok(e instanceof SearchAuthError);
    assert.match(e.toLine(), /--user-agent/);
    return true;
  });
});

test('wikipedia: malformed JSON, 5xx and silence', async () => {
  await assert.rejects((await wiki({ fault: 'malformed' })).p.search({ words: ['sea'] }, { count: 10 }), SearchResponseError);
  await assert.rejects((await wiki({ fault: 'server-error' }, { retries: 0 })).p.search({ words: ['sea'] }, { count: 10 }), SearchUnavailableError);
  const { p } = await wiki({ fault: 'hang' }, { timeoutMs: 150 });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), /no answer from .* within 150 ms/);
});

test('wikipedia: cancelling the signal rejects with its reason, not as unavailable', async () => {
  const { p } = await wiki({ fault: 'hang' }, { timeoutMs: 5000 });
  const ac = new AbortController();
  const pending = p.search({ words: ['sea'] }, { count: 10, signal: ac.signal });
  setTimeout(() => ac.abort(new Error('stopped by test')), 50);
  await assert.rejects(pending, /stopped by test/);
});

test('wikipedia: --wiki picks the host; bad values are user errors', () => {
  assert.equal(wikiHost('en'), 'en.wikipedia.org');
  assert.equal(wikiHost('zh-min-nan'), 'zh-min-nan.wikipedia.org');
  assert.equal(wikiHost('en.wikisource.org'), 'en.wikisource.org');
  assert.throws(() => wikiHost('en/../x'), UserError);
  assert.throws(() => createProvider('wikipedia', { endpoint: 'ftp://x/' }), UserError);
});

test('wikipedia: article URLs are encoded as MediaWiki links them', () => {
  const base = new URL('https://en.wikipedia.org/wiki/');
  assert.equal(articleUrl(base, 'Moby-Dick'), 'https://en.wikipedia.org/wiki/Moby-Dick');
  assert.equal(articleUrl(base, 'Re:Zero'), 'https://en.wikipedia.org/wiki/Re:Zero');
  assert.equal(articleUrl(base, 'AC/DC'), 'https://en.wikipedia.org/wiki/AC/DC');
  assert.equal(articleUrl(base, 'Café au lait'), 'https://en.wikipedia.org/wiki/Caf%C3%A9_au_lait');
  assert.equal(articleUrl(base, 'What? 100% & more #1'), 'https://en.wikipedia.org/wiki/What%3F_100%25_%26_more_%231');
});
