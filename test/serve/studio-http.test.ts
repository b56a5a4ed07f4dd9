import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { bandKeys, shingleSet } from '../../src/text/minhash.js';
import { words } from '../../src/text/tokenize.js';
import { anwc, CLI } from '../support/cli.js';
import { mysqlDb } from '../support/db.js';
import { childrenOf, commandLine } from '../support/proc.js';
import { hostileDatabase, startStudio, studioCookie, type Studio } from '../support/studio.js';

describe('anwc serve over HTTP: the guards', () => {
  let dir: string;
  let db: string;
  let hostileId: number;
  let studio: Studio;
  let cookie: string;
  const post = (path: string, body: URLSearchParams | FormData, headers: Record<string, string> = {}) =>
    fetch(`${studio.origin}${path}`, { method: 'POST', body, redirect: 'manual', headers: { cookie, origin: studio.origin, ...headers } });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'anwc-studio-'));
    ({ db, hostileId } = await hostileDatabase(dir, { sample: true }));
    studio = await startStudio(['--db', db, '--uploads', join(dir, 'uploads'), '--who', 'tester'], { cwd: dir });
    cookie = await studioCookie(studio.origin);
  });
  after(async () => {
    const end = await studio.stop();
    assert.equal(end.code, 0, end.stderr);
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a Content-Security-Policy without unsafe-inline and a cookie no script can read', async () => {
    const r = await fetch(`${studio.origin}/story`);
    const csp = r.headers.get('content-security-policy')!;
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(r.headers.get('set-cookie')!, /HttpOnly; SameSite=Strict/);
    assert.equal(studio.printed, `${studio.origin}/`, 'on loopback the address carries no token');
  });

  it('escapes what pages and authors gave it: text, source URL and meta word', async () => {
    for (const path of ['/nodes', `/nodes/${hostileId}`, '/steer', '/wheel']) {
      const page = await (await fetch(`${studio.origin}${path}`)).text();
      assert.doesNotMatch(page, /<script>window|onerror="window|"onmouseover="window/, path);
      assert.doesNotMatch(page, /href="javascript:/i, path);
    }
    const list = await (await fetch(`${studio.origin}/nodes?q=keeper+wrote`)).text();
    assert.match(list, /&lt;script&gt;window\.__xss = 1&lt;\/script&gt;/);
    assert.match(list, /&quot;onmouseover=&quot;window.__xss=2&quot;/);
    const steer = await (await fetch(`${studio.origin}/steer`)).text();
    assert.match(steer, /&lt;img src=x onerror=&quot;window.__xss=4&quot;&gt;/);
  });

  it('refuses a change without the studio\'s cookie, from another origin, or larger than the limit', async () => {
    const noCookie = await fetch(`${studio.origin}/mix`, { method: 'POST', body: new URLSearchParams({ proportion: '20' }), headers: { origin: studio.origin }, redirect: 'manual' });
    assert.equal(noCookie.status, 403);
    const foreign = await post('/mix', new URLSearchParams({ proportion: '20' }), { origin: 'http://evil.test' });
    assert.equal(foreign.status, 403);
    // The answer comes from the announced length, before a byte of the body is read.
    const big = await new Promise<number>((ok, fail) => {
      const req = request(`${studio.origin}/mix`, {
        method: 'POST', headers: { cookie, origin: studio.origin, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(3 * 1024 * 1024) },
      }, (res) => {
        ok(res.statusCode!);
        req.destroy();
      });
      req.on('error', fail);
      req.flushHeaders();
    });
    assert.equal(big, 413);
    assert.match((await anwc(['mix', '--db', db])).stdout, /0\.5/, 'nothing refused was stored');
    const ok = await post('/mix', new URLSearchParams({ proportion: '20' }));
    assert.equal(ok.status, 303);
    assert.match((await anwc(['mix', '--db', db])).stdout, /0\.2/);
  });

  it('answers a Host header of its own names only: a page on another name pointed at 127.0.0.1 gets no cookie and changes nothing', async () => {
    const port = new URL(studio.origin).port;
    // fetch() keeps Host to the URL's; a rebound name reaches the same socket with its own Host.
    const send = (method: string, path: string, host: string, headers: Record<string, string> = {}, body = '') =>
      new Promise<{ status: number; cookie: string | undefined; text: string }>((ok, fail) => {
        const req = request(`${studio.origin}${path}`, { method, headers: { host, ...headers } }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => ok({ status: res.statusCode!, cookie: res.headers['set-cookie']?.join(), text }));
        });
        req.on('error', fail);
        req.end(body);
      });
    const evil = `evil.example:${port}`;
    const page = await send('GET', '/story', evil);
    assert.equal(page.status, 403);
    assert.equal(page.cookie, undefined, 'no cookie for a foreign name');
    assert.equal(page.text, 'anwc studio: the studio does not answer to the name "evil.example"; open the address anwc serve printed, or start it with --host evil.example\n');
    const change = await send('POST', '/mix', evil, { cookie, origin: `http://${evil}`, 'content-type': 'application/x-www-form-urlencoded' }, 'proportion=90');
    assert.equal(change.status, 403);
    assert.doesNotMatch((await anwc(['mix', '--db', db])).stdout, /0\.9/, 'the mix is unchanged');
    for (const own of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
      assert.equal((await send('GET', '/story', own)).status, 200, own);
    }
    assert.equal((await send('GET', '/story', `localhost.evil.example:${port}`)).status, 403);
  });

  it('keeps an uploaded file inside the uploads folder whatever its name, and shows a markup error at file:line:col', async () => {
    const form = new FormData();
    form.set('file', new Blob(['{\\begin\n  {\\node \\meta="sea"\n    The sea.\n  }\n}\n']), '../../../escape.ane');
    const r = await post('/import', form);
    assert.equal(r.status, 303, await r.text());
    assert.deepEqual(readdirSync(join(dir, 'uploads')), ['escape.ane']);
    assert.equal(existsSync(join(dir, 'escape.ane')), false);
    const bad = new FormData();
    bad.set('file', new Blob(['{\\begin\n  {\\node \\meta="sea"\n']), 'broken.ane');
    const refused = await post('/import', bad);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /uploads\/broken\.ane:\d+:\d+: /);
  });

  it('a rejected node is never picked nor exported, and the audit names who rejected it', async () => {
    const pickAll = async () => {
      const seen = new Set<string>();
      for (let seed = 1; seed <= 12; seed++) seen.add((await anwc(['pick', 'lighthouse', '--seed', String(seed), '--db', db, '--json'])).stdout);
      return [...seen].join('');
    };
    assert.equal((await anwc(['mix', '1', '--db', db])).code, 0);
    assert.match(await pickAll(), /keeper wrote/, 'before: the node is drawn');
    const r = await post(`/nodes/${hostileId}/review`, new URLSearchParams({ review: 'rejected', back: 'https://evil.test/' }));
    assert.equal(r.status, 303);
    assert.match(r.headers.get('location')!, new RegExp(`^/nodes/${hostileId}\\?note=`), 'a foreign address to go back to is not followed');
    assert.doesNotMatch(await pickAll(), /keeper wrote/);
    assert.doesNotMatch((await anwc(['export', '--origin', 'crawler', '--format', 'jsonl', '--db', db])).stdout, /keeper wrote/);
    assert.match((await anwc(['stats', '--db', db])).stdout, /^crawler nodes by review \(anwc serve\): approved 0, rejected 1, not reviewed 0 /m);
    const page = await (await fetch(`${studio.origin}/nodes/${hostileId}`)).text();
    assert.match(page, /<td>tester<\/td><td>review<\/td><td>unreviewed<\/td><td>rejected<\/td>/);
  });
});

describe('anwc serve off loopback', () => {
  it('lets nobody in without the token, which only the printed address gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-studio-'));
    const studio = await startStudio(['--host', '127.0.0.2', '--db', `sqlite:${join(dir, 's.sqlite')}`], { cwd: dir });
    try {
      const token = new URL(studio.printed).searchParams.get('token')!;
      assert.ok(token.length >= 16, studio.printed);
      assert.equal((await fetch(`${studio.origin}/story`)).status, 401);
      assert.equal((await fetch(`${studio.origin}/story?token=wrong-${token}`)).status, 401);
      const entry = await fetch(studio.printed, { redirect: 'manual' });
      assert.equal(entry.status, 303);
      assert.equal(entry.headers.get('location'), '/', 'the token leaves the address bar');
      const cookie = entry.headers.get('set-cookie')!.split(';')[0]!;
      assert.equal((await fetch(`${studio.origin}/story`, { headers: { cookie } })).status, 200);
    } finally {
      assert.equal((await studio.stop()).code, 0);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never prints a token it was given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-studio-'));
    const token = 'given-secret-0123456789';
    const studio = await startStudio(['--host', '127.0.0.2', '--token', token, '--db', `sqlite:${join(dir, 's.sqlite')}`], { cwd: dir });
    try {
      assert.doesNotMatch(studio.printed, /token/);
      assert.equal((await fetch(`${studio.origin}/story?token=${token}`, { redirect: 'manual' })).status, 303);
    } finally {
      const end = await studio.stop();
      assert.doesNotMatch(end.stdout + end.stderr, new RegExp(token));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says in one line that a port is taken, or a token is too short', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-studio-'));
    const studio = await startStudio(['--db', `sqlite:${join(dir, 's.sqlite')}`], { cwd: dir });
    try {
      const port = new URL(studio.origin).port;
      const taken = await anwc(['serve', '--port', port, '--db', `sqlite:${join(dir, 's.sqlite')}`]);
      assert.equal(taken.code, 2);
      assert.equal(taken.stderr, `anwc: port ${port} on 127.0.0.1 is taken (got "${port}"); give another with --port N\n`);
      const short = await anwc(['serve', '--token', 'abc', '--db', `sqlite:${join(dir, 's.sqlite')}`]);
      assert.equal(short.code, 2);
      assert.match(short.stderr, /^anwc: the token is too short.*\n$/);
    } finally {
      await studio.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('anwc serve on MariaDB/MySQL', () => {
  // As the store's contract suite: ANWC_TEST_MYSQL=off runs without a server; otherwise one is needed.
  it('reads the story and curates on a MySQL database as on SQLite', { skip: process.env.ANWC_TEST_MYSQL === 'off' && 'ANWC_TEST_MYSQL=off' }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-studio-'));
    const target = mysqlDb();
    const { db, hostileId } = await hostileDatabase(dir, { sample: true, db: target.url });
    const studio = await startStudio(['--db', db, '--who', 'tester'], { cwd: dir });
    try {
      const story = await (await fetch(`${studio.origin}/story?seed=1`)).text();
      assert.equal(story.match(/class="node author/g)?.length, 14);
      assert.match(story, /<a class="word" href="\/story\/click\?[^"]*word=lighthouse">lighthouse<\/a>/);
      const cookie = await studioCookie(studio.origin);
      const edit = await fetch(`${studio.origin}/nodes/${hostileId}`, {
        method: 'POST', redirect: 'manual', headers: { cookie, origin: studio.origin },
        body: new URLSearchParams({ text: 'The keeper wrote of the lighthouse, and nothing else.', words: 'lighthouse, keeper' }),
      });
      assert.equal(edit.status, 303);
      const page = await (await fetch(`${studio.origin}/nodes/${hostileId}`)).text();
      assert.match(page, /<td>tester<\/td><td>meta<\/td><td>lighthouse<\/td><td>keeper, lighthouse<\/td>/, 'meta words in the audit by name');
      assert.match(page, /<td>tester<\/td><td>text<\/td>/);
      const store = await openStore(db);
      try {
        const [alike] = await store.nodesSharingBands([bandKeys(shingleSet(words('The keeper wrote of the lighthouse, and nothing else.')))], 8);
        assert.deepEqual(alike!.map((n) => n.id), [hostileId], 'near-copies are found of the edited text');
      } finally {
        await store.close();
      }
    } finally {
      assert.equal((await studio.stop()).code, 0);
      await target.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('anwc serve after the demo', () => {
  it('brings the demo web back, so that a harvest from the studio goes on offline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-studio-demo-'));
    const db = `sqlite:${join(dir, 'demo.sqlite')}`;
    const demo = await anwc(['demo', '--db', db, '--port', '0', '--max-pages', '15', '--progress', 'none'], { cwd: dir });
    assert.equal(demo.code, 0, demo.stderr);
    const port = /127\.0\.0\.1:(\d+)/.exec(demo.stdout)![1];
    const studio = await startStudio(['--db', db], { cwd: dir });
    try {
      const before = await anwc(['stats', '--db', db, '--json']);
      const done = (s: string) => (JSON.parse(s) as { links: Record<string, number> }).links.done ?? 0;
      const cookie = await studioCookie(studio.origin);
      const r = await fetch(`${studio.origin}/harvest`, { method: 'POST', redirect: 'manual', headers: { cookie, origin: studio.origin }, body: new URLSearchParams({ 'max-pages': '10' }) });
      assert.equal(r.status, 303);
      let job = '';
      for (let i = 0; i < 120 && !/harvest (done|failed)/.test(job); i++) {
        await new Promise((ok) => setTimeout(ok, 250));
        job = await (await fetch(`${studio.origin}/steer`)).text();
      }
      assert.match(job, /harvest<\/strong> done \(exit 0\)/, job);
      assert.equal(done((await anwc(['stats', '--db', db, '--json'])).stdout), done(before.stdout) + 10, 'ten more pages walked, on the demo web');
      const ids = async (q: string) => [...(await (await fetch(`${studio.origin}/nodes?${q}`)).text()).matchAll(/<li class="node crawler[^"]*" data-node="(\d+)"/g)].map((m) => m[1]);
      const [first, second, all] = [await ids('run=1'), await ids('run=2'), await ids('')];
      assert.ok(first.length > 0, 'the demo\'s run stored nodes');
      assert.ok(first.length < all.length || second.length === 0, 'a run shows only its own nodes');
      assert.deepEqual(first.filter((id) => second.includes(id)), [], 'no node in two runs');
      assert.ok([...first, ...second].every((id) => all.includes(id)));
      // Ctrl-C at the studio while a harvest runs: the harvest finishes its pages in flight, saves, and both end well.
      const again = await fetch(`${studio.origin}/harvest`, { method: 'POST', redirect: 'manual', headers: { cookie, origin: studio.origin } });
      assert.equal(again.status, 303);
      if (process.platform === 'linux') {
        // The job is anwc's CLI again, which sets anwc's flags of Node's itself (cli/node-flags.ts).
        const job = childrenOf(studio.child.pid!).map(commandLine).find((argv) => argv.includes('harvest'));
        assert.equal(job?.[1], CLI, `the job's command line: ${job?.join(' ')}`);
      }
      await new Promise((ok) => setTimeout(ok, 1500));
    } finally {
      const end = await studio.stop();
      assert.equal(end.code, 0, end.stderr);
      assert.match(end.stderr, /stopping the running job \(its pages in flight are saved/);
      assert.match(end.stdout, new RegExp(`the demo web runs again on 127\\.0\\.0\\.1:${port} `));
      const links = (JSON.parse((await anwc(['stats', '--db', db, '--json'])).stdout) as { links: Record<string, number> }).links;
      assert.equal(links.leased ?? 0, 0, 'no link left leased: the stopped harvest saved what it held');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
