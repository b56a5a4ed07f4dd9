import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider, SearchAuthError, SearchQuotaError, SearchResponseError, SearchUnavailableError } from '../../src/search/index.js';
import { UserError } from '../../src/errors.js';
import { corpus, startStandin, type Standin } from '../support/search-standins.js';

const servers: Standin[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function searx(opts: Parameters<typeof startStandin>[2] = {}, config: Record<string, unknown> = {}) {
  const s = await startStandin('searxng', [...corpus(13, 'sea storm'), { url: 'ftp://old.example/file', title: 'ftp', text: 'sea' }], opts);
  servers.push(s);
  return { s, p: createProvider('searxng', { endpoint: s.url, timeoutMs: 2000, ...config }) };
}

test('searxng: asks /search with format=json, pages by pageno, keeps http(s) only', async () => {
  const { s, p } = await searx({ pageSize: 5 });
  const r = await p.search({ words: ['sea'] }, { count: 20 });
  assert.equal(r.length, 13);
  assert.deepEqual(s.requests.map((q) => q.params.get('pageno')), ['1', '2', '3', '4']);
  assert.equal(s.requests[0]!.params.get('format'), 'json');
  assert.ok(r.every((x) => x.url.startsWith('https://')));
});

test('searxng: stops at count', async () => {
  const { s, p } = await searx({ pageSize: 5 });
  assert.equal((await p.search({ words: ['sea', 'storm'] }, { count: 7 })).length, 7);
  assert.equal(s.requests.length, 2);
});

test('searxng: zero results is an empty list', async () => {
  const { p } = await searx();
  assert.deepEqual(await p.search({ words: ['absent'] }, { count: 10 }), []);
});

test('searxng: the 403 of a disabled json format explains settings.yml', async () => {
  const { p } = await searx({ fault: 'json-disabled' });
  await assert.rejects(p.search({ words: ['sea'] }, { count: 10 }), (e: unknown) => {
    assert.ok(e instanceof SearchAuthError);
    assert.match(e.toLine(), /settings\.yml \(search: formats: \[html, json\]\)/);
    return true;
  });
});

test('searxng: the limiter\'s 429 is a quota error; dead engines are unavailable', async () => {
  await assert.rejects((await searx({ fault: 'quota' })).p.search({ words: ['sea'] }, { count: 10 }), SearchQuotaError);
  await assert.rejects((await searx({ fault: 'engines-down' })).p.search({ words: ['sea'] }, { count: 10 }), /duckduckgo: timeout/);
});

test('searxng: malformed JSON, 5xx and silence', async () => {
  await assert.rejects((await searx({ fault: 'malformed' })).p.search({ words: ['sea'] }, { count: 5 }), SearchResponseError);
  await assert.rejects((await searx({ fault: 'server-error' }, { retries: 0 })).p.search({ words: ['sea'] }, { count: 5 }), SearchUnavailableError);
  await assert.rejects((await searx({ fault: 'hang' }, { timeoutMs: 150 })).p.search({ words: ['sea'] }, { count: 5 }), SearchUnavailableError);
});

test('searxng: needs an endpoint', () => {
  assert.throws(() => createProvider('searxng', {}), (e: unknown) => e instanceof UserError && /--search-endpoint/.test(e.message));
});
