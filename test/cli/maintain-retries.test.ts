import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { EXIT } from '../../src/cli/exit.js';
import { anwc } from '../support/cli.js';

/**
 * A link checker that gives up a failing site, or waits for retries it never sends, reports a
 * site it did not check (issue: never a false green). The checked site is slowed, never dropped;
 * a passing failure is tried again with a request; what is left when the time runs out is named
 * as untested, with why, and the run is no success. One answer per URL per run, robots.txt once
 * per origin, across the tasks of an instruction file.
 */

const HOST = 'check.test';
let server: Server;
let port: number;
let dir: string;
/** Requests as "METHOD /path", in arrival order. */
let log: string[];
/** path → [status of the first answers…]; past the list, the last one is repeated. */
let answers: Map<string, number[]>;
const seen = new Map<string, number>();

const page = (links: string[]) => `<!DOCTYPE html><html><head><title>t</title></head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-check-'));
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    log.push(`${req.method} ${path}`);
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/moved') return void res.writeHead(301, { location: '/ok2' }).end();
    if (path === '/nohead.pdf' && req.method === 'HEAD') return void res.writeHead(405).end();
    const n = seen.get(path) ?? 0;
    seen.set(path, n + 1);
    const list = answers.get(path) ?? answers.get(`http://${req.headers.host}${path}`) ?? [200];
    const status = list[Math.min(n, list.length - 1)]!;
    const body = path === '/' ? page([...answers.keys()].filter((p) => p !== '/')) : status === 200 ? page([]) : 'not now';
    res.writeHead(status, { 'content-type': path.endsWith('.pdf') ? 'application/pdf' : 'text/html' }).end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as { port: number }).port;
});
beforeEach(() => {
  log = [];
  seen.clear();
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

const url = (path: string) => `http://${HOST}:${port}${path}`;
const count = (req: string) => log.filter((l) => l === req).length;
let runs = 0;
const common = (hosts = HOST) => ['--resolve', `${HOST}:127.0.0.1`, '--hosts', hosts, '--delay', '0', '--progress', 'none', '--db', `sqlite:${join(dir, `m${runs++}.sqlite`)}`];

describe('maintain on a site whose server fails', () => {
  it('a host failing many times in a row is slowed, not given up: every link is tested, a HEAD refused with 405 falls back to GET', async () => {
    answers = new Map([['/', [200]], ...[0, 1, 2, 3, 4, 5].map((i): [string, number[]] => [`/e${i}`, [500]]), ['/ok1', [200]], ['/ok2', [200]], ['/nohead.pdf', [200]]]);
    const r = await anwc(['maintain', '--site', url('/'), '--max-retries', '0', '--backoff', '0.02', '--json', ...common()]);
    assert.equal(r.code, EXIT.PROBLEMS, r.stderr);
    assert.equal(count('GET /ok1'), 1, 'the links after six errors in a row are still asked');
    assert.equal(count('GET /ok2'), 1);
    assert.deepEqual(log.filter((l) => l.endsWith('/nohead.pdf')), ['HEAD /nohead.pdf', 'GET /nohead.pdf']);
    const report = JSON.parse(r.stdout) as { checks: Record<string, { state: string; detail?: string }> };
    assert.equal(report.checks[url('/ok1')]!.state, 'ok');
    assert.equal(report.checks[url('/nohead.pdf')]!.state, 'ok');
    assert.equal(report.checks[url('/e5')]!.detail, 'HTTP 500');
    assert.doesNotMatch(r.stderr, /given up/);
  });

  it('a passing failure is tried again with a request, and a link that recovers is ok', async () => {
    answers = new Map([['/', [200]], ['/flaky', [500, 503, 200]], ['/dead', [500]]]);
    const r = await anwc(['maintain', '--site', url('/'), '--max-retries', '2', '--backoff', '0.02', '--json', ...common()]);
    assert.equal(count('GET /flaky'), 3, 'two retries, each a request');
    assert.equal(count('GET /dead'), 3);
    const report = JSON.parse(r.stdout) as { checks: Record<string, { state: string; detail?: string }> };
    assert.equal(report.checks[url('/flaky')]!.state, 'ok');
    assert.deepEqual(report.checks[url('/dead')], { url: url('/dead'), state: 'broken', status: 500, detail: 'HTTP 500' });
    assert.equal(r.code, EXIT.PROBLEMS, 'a broken link');
  });

  it('links left when --max-time ends the run are not tested, each says why, and the run is not a success', async () => {
    answers = new Map([['/', [200]], ...[0, 1, 2, 3].map((i): [string, number[]] => [`/down${i}`, [503]])]);
    const r = await anwc(['maintain', '--site', url('/'), '--max-retries', '5', '--backoff', '1', '--max-time', '2', ...common()]);
    assert.equal(r.code, EXIT.PROBLEMS, r.stderr);
    const untested = r.stdout.split('\n').filter((l) => l.startsWith('not-tested\t'));
    assert.ok(untested.length >= 1, r.stdout);
    for (const line of untested) assert.match(line, /\tnot tested: host failing \(\d+ errors in a row\): the time limit \(--max-time\) came first/);
    assert.match(r.stderr, /\d+ link\(s\) not tested .*rerun with a longer --max-time/);
  });
});

describe('maintain on a site that links to a host that fails', () => {
  it('gives up the other host after errors in a row, its links untested with why, and ends', async () => {
    const dead = (i: number) => `http://down.test:${port}/x${i}`;
    answers = new Map([['/', [200]], ['/ok1', [200]], ...[0, 1, 2, 3, 4, 5, 6, 7].map((i): [string, number[]] => [dead(i), [500]])]);
    const r = await anwc(['maintain', '--site', url('/'), '--max-retries', '0', '--backoff', '0.02', '--resolve', 'down.test:127.0.0.1', '--json', ...common(`${HOST},down.test`)]);
    assert.equal(r.code, EXIT.PROBLEMS, r.stderr);
    const report = JSON.parse(r.stdout) as { checks: Record<string, { state: string; detail?: string }> };
    assert.equal(report.checks[url('/ok1')]!.state, 'ok');
    const states = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => report.checks[dead(i)]!);
    assert.equal(states.filter((c) => c.state === 'broken').length, 5, 'five errors in a row, then the host is given up');
    for (const c of states.filter((x) => x.state === 'unchecked')) assert.match(c.detail!, /^host failing \(5 errors in a row\): the run ended before it$/);
    assert.equal(states.filter((c) => c.state === 'unchecked').length, 3);
  });
});

describe('maintain with several tasks in one run', () => {
  it('asks robots.txt once per origin and each URL once, a redirect\'s target included', async () => {
    answers = new Map([['/ok1', [200]], ['/ok2', [200]]]);
    const tasks = join(dir, 'tasks.txt');
    writeFileSync(tasks, ['one /ok1', 'two /moved', 'three /ok2'].map((t) => `<Site\nName ${t.split(' ')[0]}\nTopURL ${url(t.split(' ')[1]!)}\n>\n`).join(''));
    const r = await anwc(['maintain', tasks, ...common()]);
    assert.equal(r.code, EXIT.OK, r.stderr);
    assert.equal(count('GET /robots.txt'), 1);
    assert.equal(count('GET /ok2'), 1, 'the third task reads the answer the second task\'s redirect ended at');
  });
});
