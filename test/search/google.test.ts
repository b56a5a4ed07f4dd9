import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider, SearchAuthError, SearchQuotaError, SearchResponseError, SearchUnavailableError } from '../../src/search/index.js';
import { UserError } from '../../src/errors.js';
import { corpus, startStandin, STANDIN_KEY, type Standin } from '../support/search-standins.js';

const CX = 'standin-cx-77';
const env = { GOOGLE_API_KEY: STANDIN_KEY, GOOGLE_CSE_ID: CX };
const docs = [
  ...corpus(25, 'sea storm harbour'),
  { url: 'https://tales.example/lighthouse', title: 'The lighthouse keeper', text: 'a storm at sea; the keeper wakes' },
];
const servers: Standin[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function google(opts: Parameters<typeof startStandin>[2] = {}, extraEnv: Record<string, string> = {}) {
  const s = await startStandin('google', docs, opts);
  servers.push(s);
  return { s, p: createProvider('google', { endpoint: s.url, env: { ...env, ...extraEnv }, timeoutMs: 2000 }) };
}

test('google: pages through start=1, 11, 21 with num at most 10 and ranks across pages', async () => {
  const { s, p } = await google();
  const r = await p.search({ words: ['sea', 'storm'] }, { count: 24 });
  assert.equal(r.length, 24);
  assert.deepEqual(r.map((x) => x.rank), Array.from({ length: 24 }, (_, i) => i + 1));
  assert.deepEqual(s.requests.map((q) => [q.params.get('start'), q.params.get('num')]), [['1', '10'], ['11', '10'], ['21', '4']]);
  assert.equal(s.requests[0]!.params.get('q'), 'sea storm');
  assert.equal(s.requests[0]!.params.get('cx'), CX);
  assert.equal(r[0]!.url, 'https://example.org/doc/1');
  assert.equal(r[0]!.title, 'Document 1 (example.org)');
  assert.match(r[0]!.snippet, /^sea storm harbour/);
});

test('google: stops when the API has no next page', async () => {
  const { s, p } = await google();
  const r = await p.search({ words: ['keeper'] }, { count: 10 });
  assert.deepEqual(r.map((x) => x.url), ['https://tales.example/lighthouse']);
  assert.equal(s.requests.length, 1);
});

test('google: zero results (the answer has no items) is an empty list', async () => {
  const { p } = await google();
  assert.deepEqual(await p.search({ words: ['nothing', 'matches'] }, { count: 10 }), []);
});

test('google: never asks past the 100th result', async () => {
  const s = await startStandin('google', corpus(130, 'wide'));
  servers.push(s);
  const p = createProvider('google', { endpoint: s.url, env });
  const r = await p.search({ words: ['wide'] }, { count: 500 });
  assert.equal(r.length, 100);
  assert.equal(s.requests.at(-1)!.params.get('start'), '91');
});

test('google: 429 rateLimitExceeded is a quota error that names the other providers', async () => {
  const { p } = await google({ fault: 'quota' });
  const err = await p.search({ words: ['sea'] }, { count: 10 }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof SearchQuotaError);
  assert.ok(err instanceof UserError);
  assert.match(err.toLine(), /quota/);
  assert.match(err.toLine(), /wikipedia/);
  assert.doesNotMatch(err.toLine(), /project_number|standin-key|standin-cx/);
});

test('google: 403 dailyLimitExceeded is a quota error too', async () => {
  const { p } = await google({ fault: 'daily-limit' });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), SearchQuotaError);
});

test('google: PERMISSION_DENIED says the API is closed to new customers', async () => {
  const { p } = await google({ fault: 'permission-denied' });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), (e: unknown) => {
    assert.ok(e instanceof SearchAuthError);
    assert.match(e.toLine(), /closed to new customers/);
    assert.match(e.toLine(), /brave/);
    return true;
  });
});

test('google: a wrong key is a bad-key error that does not echo the key', async () => {
  const { p } = await google({}, { GOOGLE_API_KEY: 'wrong-key-9' });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), (e: unknown) => {
    assert.ok(e instanceof SearchAuthError);
    assert.match(e.toLine(), /GOOGLE_API_KEY is not a valid API key/);
    assert.doesNotMatch(e.toLine(), /wrong-key-9/);
    return true;
  });
});

test('google: missing environment variables are named', () => {
  assert.throws(() => createProvider('google', { env: {} }), (e: unknown) => {
    assert.ok(e instanceof UserError);
    assert.match(e.message, /GOOGLE_API_KEY and GOOGLE_CSE_ID/);
    return true;
  });
  assert.throws(() => createProvider('google', { env: { GOOGLE_API_KEY: 'k' } }), /needs GOOGLE_CSE_ID in/);
});

test('google: malformed JSON is a response error', async () => {
  const { p } = await google({ fault: 'malformed' });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), SearchResponseError);
});

test('google: a server that never answers times out as unavailable', async () => {
  const s = await startStandin('google', docs, { fault: 'hang' });
  servers.push(s);
  const p = createProvider('google', { endpoint: s.url, env, timeoutMs: 200 });
  const t0 = Date.now();
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), (e: unknown) => {
    assert.ok(e instanceof SearchUnavailableError);
    assert.match(e.message, /no answer within 200 ms/);
    return true;
  });
  assert.ok(Date.now() - t0 < 5000);
});

test('google: 5xx is unavailable, not retried behind the caller\'s back', async () => {
  const { s, p } = await google({ fault: 'server-error' });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), SearchUnavailableError);
  assert.equal(s.requests.length, 1);
});
