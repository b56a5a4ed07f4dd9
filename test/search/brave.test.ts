import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider, SearchAuthError, SearchQuotaError, SearchResponseError, SearchUnavailableError } from '../../src/search/index.js';
import { UserError } from '../../src/errors.js';
import { corpus, startStandin, STANDIN_KEY, type Standin } from '../support/search-standins.js';

const env = { BRAVE_API_KEY: STANDIN_KEY };
const servers: Standin[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function brave(opts: Parameters<typeof startStandin>[2] = {}, config: Record<string, unknown> = {}) {
  const s = await startStandin('brave', corpus(45, 'sea storm'), opts);
  servers.push(s);
  return { s, p: createProvider('brave', { endpoint: s.url, env, timeoutMs: 2000, ...config }) };
}

test('brave: sends the key as X-Subscription-Token and pages by offset (in pages of count)', async () => {
  const { s, p } = await brave();
  const r = await p.search({ words: ['sea', 'storm'] }, { count: 30 });
  assert.equal(r.length, 30);
  assert.deepEqual(s.requests.map((q) => [q.params.get('count'), q.params.get('offset')]), [['20', '0'], ['20', '1']]);
  assert.equal(s.requests[0]!.path, '/res/v1/web/search');
  assert.equal(s.requests[0]!.headers['x-subscription-token'], STANDIN_KEY);
  assert.equal(s.requests[0]!.params.get('q'), 'sea storm');
  assert.deepEqual(r.map((x) => x.rank), Array.from({ length: 30 }, (_, i) => i + 1));
  assert.doesNotMatch(r[0]!.snippet, /<strong>/);
});

test('brave: stops when more_results_available is false; zero results have no web section', async () => {
  const { s, p } = await brave();
  assert.equal((await p.search({ words: ['sea'] }, { count: 200 })).length, 45);
  assert.equal(s.requests.length, 3);
  assert.deepEqual(await p.search({ words: ['absent'] }, { count: 10 }), []);
});

test('brave: a per-second 429 is waited out; a spent monthly window is a quota error', async () => {
  const once = await brave({ fault: 'rate-limited-once' });
  assert.equal((await once.p.search({ words: ['sea'] }, { count: 5 })).length, 5);
  assert.equal(once.s.requests.length, 2);
  const spent = await brave({ fault: 'quota' });
  await assert.rejects(spent.p.search({ words: ['sea'] }, { count: 5 }), (e: unknown) => {
    assert.ok(e instanceof SearchQuotaError);
    assert.equal(e.retryAfterSeconds, 86400);
    return true;
  });
  assert.equal(spent.s.requests.length, 1);
});

test('brave: a bad key is an auth error that does not echo it', async () => {
  const { p } = await brave({}, { env: { BRAVE_API_KEY: 'not-the-key-5' } });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 5 }), (e: unknown) => {
    assert.ok(e instanceof SearchAuthError);
    assert.match(e.message, /SUBSCRIPTION_TOKEN_INVALID/);
    assert.doesNotMatch(e.toLine(), /not-the-key-5/);
    return true;
  });
  assert.throws(() => createProvider('brave', { env: {} }), (e: unknown) => e instanceof UserError && /BRAVE_API_KEY/.test(e.message));
});

test('brave: malformed JSON, 5xx and silence', async () => {
  await assert.rejects((await brave({ fault: 'malformed' })).p.search({ words: ['sea'] }, { count: 5 }), SearchResponseError);
  await assert.rejects((await brave({ fault: 'server-error' })).p.search({ words: ['sea'] }, { count: 5 }), SearchUnavailableError);
  const { p } = await brave({ fault: 'hang' }, { timeoutMs: 150 });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 5 }), SearchUnavailableError);
});
