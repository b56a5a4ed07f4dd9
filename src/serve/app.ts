import { timingSafeEqual } from 'node:crypto';
import { basename, join, relative, resolve, sep } from 'node:path';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import { secureHeaders } from 'hono/secure-headers';
import { streamSSE } from 'hono/streaming';
import seedrandom from 'seedrandom';
import { writeFileAtomic } from '../atomic-file.js';
import { isUserError } from '../errors.js';
import { importFiles } from '../feed/import.js';
import { getProportion, parseProportion, setProportion } from '../feed/mix.js';
import { pickNode } from '../feed/pick.js';
import { NODE_STATUSES, REVIEWS, TextTakenError, type NodeQuery, type Review, type Store, type StoredNode, type StoryFile } from '../store/store.js';
import { evaluateBlock } from '../text/heuristics.js';
import { bandKeys, shingleSet } from '../text/minhash.js';
import { splitSentences } from '../text/sentences.js';
import { stem } from '../text/stem.js';
import { words as wordsOf } from '../text/tokenize.js';
import { STUDIO_CSS, STUDIO_JS } from './assets.js';
import { hostServed } from './hosts.js';
import type { Jobs } from './jobs.js';
import { nodeListPage, nodePage } from './pages/nodes.js';
import { jobBlock, steerPage } from './pages/steer.js';
import { storyPage } from './pages/story.js';
import { wheelFigure, wheelPage } from './pages/wheel.js';
import { timeline } from './timeline.js';
import { parseStoryState, steppedBack, storyQuery, swapped } from './story-state.js';

export interface StudioOptions {
  store: Store;
  jobs: Jobs;
  /** The secret a browser must hold (as a cookie) to change anything, or to see anything when `tokenRequired`. */
  token: string;
  /** Off loopback: every request needs the token, which only the printed URL gives. */
  tokenRequired: boolean;
  /** The host names a request may carry in its Host header (servedNames in hosts.ts); IP addresses always may. */
  hosts: ReadonlySet<string>;
  /** Who the audit names for changes made in this studio. */
  who: string;
  /** Where uploaded markup files are kept (their names reduced to a safe base name). */
  uploads: string;
}

const COOKIE = 'anwc_studio';
const COOKIE_OPTIONS = { httpOnly: true, sameSite: 'Strict', path: '/' } as const;
const PAGE_SIZE = 50;
/** Markup files are text; 2 MB holds a long novel. */
const BODY_MAX = 2 * 1024 * 1024;
const TEXT_MAX = 20_000;
const SWAP_DRAWS = 8;
/** The newest nodes the chart over time counts: enough for its shape, bounded on a big store. */
const TIMELINE_NODES = 20_000;

function sameSecret(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A local path to send the reader back to; anything else (another site, a scheme) becomes `fallback`. */
function localPath(back: unknown, fallback: string): string {
  return typeof back === 'string' && /^\/(?![/\\])[^\s]*$/.test(back) ? back : fallback;
}

function withNote(path: string, note: string, key = 'note'): string {
  const u = new URL(path, 'http://studio.invalid');
  u.searchParams.set(key, note);
  return `${u.pathname}${u.search}`;
}

/** The studio: pages over the store, no logic of its own beyond turning requests into store calls. */
export function studioApp(o: StudioOptions): Hono {
  const { store, jobs } = o;
  const app = new Hono();

  // First of all: a request to a name the studio was not started on is a page of another site
  // that had its name point here (DNS rebinding), and gets neither a cookie nor an answer.
  app.use(async (c, next) => {
    const host = c.req.header('host');
    if (hostServed(host, o.hosts)) return next();
    const name = (host ?? '').replace(/:\d*$/, '').slice(0, 100);
    return c.text(`anwc studio: the studio does not answer to the name "${name}"; open the address anwc serve printed, or start it with --host ${name || 'NAME'}\n`, 403);
  });
  app.use(secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"], scriptSrc: ["'self'"], styleSrc: ["'self'"], imgSrc: ["'self'"], connectSrc: ["'self'"],
      formAction: ["'self'"], frameAncestors: ["'none'"], baseUri: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
    // Plain HTTP on this machine: a header that pins HTTPS would only mislead.
    strictTransportSecurity: false,
  }));

  // The token: the printed URL carries it once; the browser keeps it in a cookie no script can read.
  app.use(async (c, next) => {
    const given = c.req.query('token');
    if (given !== undefined && sameSecret(given, o.token)) {
      setCookie(c, COOKIE, o.token, COOKIE_OPTIONS);
      const u = new URL(c.req.url);
      u.searchParams.delete('token');
      return c.redirect(`${u.pathname}${u.search}`, 303);
    }
    const held = sameSecret(getCookie(c, COOKIE), o.token);
    if (!held && o.tokenRequired) {
      return c.text('anwc studio: open the address anwc serve printed (it carries the token)\n', 401);
    }
    if (!held && c.req.method === 'GET') setCookie(c, COOKIE, o.token, COOKIE_OPTIONS);
    if (!held && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return c.text('anwc studio: this change needs the studio\'s cookie; reload the page and try again\n', 403);
    }
    return next();
  });
  app.use(csrf());
  app.use(bodyLimit({ maxSize: BODY_MAX, onError: (c) => c.text(`anwc studio: the request is larger than ${BODY_MAX / 1024 / 1024} MB\n`, 413) }));

  app.get('/static/studio.css', (c) => c.body(STUDIO_CSS, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' }));
  app.get('/static/studio.js', (c) => c.body(STUDIO_JS, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }));
  app.get('/', (c) => c.redirect('/story', 303));

  // The evolving page.
  const idsOf = (files: StoryFile[]) => files.flatMap((f) => f.sections.flatMap((s) => s.nodeIds));
  const storyIds = async () => idsOf(await store.story());
  app.get('/story', async (c) => {
    const files = await store.story();
    const state = parseStoryState(c.req.query(), idsOf(files));
    const nodes = await Promise.all(state.ids.map((id) => store.node(id)));
    const stems = new Set((await store.listMetaWords()).map((m) => m.stem));
    const swappedSlot = /^\d+$/.test(c.req.query('swapped') ?? '') ? Number(c.req.query('swapped')) : null;
    return c.html(storyPage({ state, nodes, files, stems, proportion: (await getProportion(store)).value, swappedSlot, note: c.req.query('note') }));
  });
  app.get('/story/click', async (c) => {
    const state = parseStoryState(c.req.query(), await storyIds());
    const slot = Number(c.req.query('slot'));
    const word = (c.req.query('word') ?? '').slice(0, 100);
    if (!Number.isInteger(slot) || slot < 0 || slot >= state.ids.length || word.trim() === '') return c.redirect(`/story?${storyQuery(state)}`, 303);
    const rng = state.seed === null ? Math.random : seedrandom(`${state.seed}:${state.step}`);
    const proportion = (await getProportion(store)).value;
    // A swap that shows the same node again would look like a click that did nothing: draw again, a few times.
    let picked = await pickNode(store, word, { proportion, rng });
    for (let i = 0; i < SWAP_DRAWS && picked?.id === state.ids[slot]; i++) picked = await pickNode(store, word, { proportion, rng });
    if (!picked) return c.redirect(`/story?${storyQuery(state, { note: `no node speaks of "${word}" (stem ${stem(word)})` })}`, 303);
    if (picked.id === state.ids[slot]) return c.redirect(`/story?${storyQuery(state, { note: `the node shown is the only one drawn for "${word}"` })}`, 303);
    const next = swapped(state, slot, picked.id);
    return c.redirect(`/story?${storyQuery(next, { swapped: String(slot) })}`, 303);
  });
  app.get('/story/back', async (c) => {
    const state = parseStoryState(c.req.query(), await storyIds());
    return c.redirect(`/story?${storyQuery(steppedBack(state) ?? state)}`, 303);
  });

  // Foreign text.
  app.get('/nodes', async (c) => {
    const q = c.req.query();
    const words = await store.listMetaWords();
    const word = words.find((w) => w.word === q.word);
    const runs = await store.runs(20);
    const run = runs.find((r) => String(r.id) === q.run);
    const query: NodeQuery & { word?: string; run?: number } = {
      origin: 'crawler',
      contains: q.q?.trim() || undefined,
      host: q.host?.trim().toLowerCase() || undefined,
      status: NODE_STATUSES.find((s) => s === q.status),
      review: REVIEWS.find((r) => r === q.review),
      afterId: /^\d+$/.test(q.after ?? '') ? Number(q.after) : undefined,
      limit: PAGE_SIZE + 1,
      word: word?.word,
      ...(word ? { stem: word.stem } : {}),
      // A run's nodes are those stored while it ran.
      ...(run ? { run: run.id, createdFrom: run.startedAt, createdTo: run.endedAt ?? Date.now() } : {}),
    };
    const found = await store.nodes(query);
    const nodes = found.slice(0, PAGE_SIZE);
    const self = `/nodes?${new URLSearchParams(Object.entries(q).filter(([k]) => k !== 'after' && k !== 'note')).toString()}`;
    return c.html(nodeListPage({
      query, nodes, verdicts: nodes.map((n) => evaluateBlock(n.text)), words, runs,
      next: found.length > PAGE_SIZE ? nodes[nodes.length - 1]!.id : null, self, note: q.note,
    }));
  });
  const nodeOf = async (c: Context) => {
    const id = Number(c.req.param('id'));
    return Number.isSafeInteger(id) ? store.node(id) : undefined;
  };
  /** A node's page, with what the author typed and why it was refused when a change was. */
  const showNode = async (c: Context, node: StoredNode, refused?: { error: string; draft: { text: string; words: string }; status: 400 | 409 }) =>
    c.html(nodePage({
      node, words: await store.listMetaWords(), verdict: evaluateBlock(node.text), audit: await store.nodeAudit({ nodeId: node.id, limit: 50 }),
      note: c.req.query('note'), error: refused?.error, draft: refused?.draft,
    }), refused?.status ?? 200);
  app.get('/nodes/:id', async (c) => {
    const node = await nodeOf(c);
    if (!node) return c.html('<p>No such node.</p>', 404);
    return showNode(c, node);
  });
  app.post('/nodes/:id/review', async (c) => {
    const node = await nodeOf(c);
    if (!node) return c.text('anwc studio: no such node\n', 404);
    const body = await c.req.parseBody();
    const review = REVIEWS.find((r) => r === body.review) as Review | undefined;
    if (!review) return c.text('anwc studio: review must be approved, rejected or unreviewed\n', 400);
    await store.curateNode(node.id, { review }, o.who);
    return c.redirect(withNote(localPath(body.back, `/nodes/${node.id}`), `node ${node.id} ${review}`), 303);
  });
  app.post('/nodes/:id', async (c) => {
    const node = await nodeOf(c);
    if (!node) return c.text('anwc studio: no such node\n', 404);
    const body = await c.req.parseBody();
    const text = String(body.text ?? '').replace(/\r\n?/g, '\n').trim();
    const wordsTyped = String(body.words ?? '');
    const known = await store.listMetaWords();
    const again = (error: string, status: 400 | 409) => showNode(c, node, { error, draft: { text, words: wordsTyped }, status });
    if (text === '' || text.length > TEXT_MAX) return again(`the text must hold 1 to ${TEXT_MAX} characters`, 400);
    const ids: number[] = [];
    for (const typed of wordsTyped.split(',').map((w) => w.trim()).filter(Boolean)) {
      const m = known.find((k) => k.stem === stem(typed));
      if (!m) return again(`"${typed}" is not a meta word of the imported markup; the meta words are ${known.map((k) => k.word).join(', ')}`, 400);
      ids.push(m.id);
    }
    try {
      const bands = node.origin === 'crawler' ? bandKeys(shingleSet(wordsOf(text))) : undefined;
      await store.curateNode(node.id, { text: { text, sentences: splitSentences(text), ...(bands ? { bands } : {}) }, metaWordIds: ids }, o.who);
    } catch (err) {
      if (err instanceof TextTakenError) return again(`node ${err.takenBy} already has this text`, 409);
      throw err;
    }
    return c.redirect(`/nodes/${node.id}?note=saved`, 303);
  });

  // Steering.
  const steer = async (c: Context, extra: { note?: string; error?: string } = {}, status: 200 | 400 = 200) => c.html(steerPage({
    proportion: (await getProportion(store)).value, words: await store.listMetaWords(), job: jobs.current(),
    note: extra.note ?? c.req.query('note'), error: extra.error ?? c.req.query('error'),
  }), status);
  app.get('/steer', (c) => steer(c));
  app.post('/mix', async (c) => {
    const body = await c.req.parseBody();
    try {
      const value = parseProportion(`${String(body.proportion ?? '')}%`);
      await setProportion(store, value);
      return c.redirect(withNote('/steer', `crawler nodes in a pick: ${Math.round(value * 100)} %`), 303);
    } catch (err) {
      if (isUserError(err)) return steer(c, { error: err.toLine() }, 400);
      throw err;
    }
  });
  app.post('/import', async (c) => {
    const body = await c.req.parseBody();
    const file = body.file;
    if (!(file instanceof File) || file.size === 0) return steer(c, { error: 'choose an ANE markup file to import' }, 400);
    // The browser names the file; only its base name is kept, made of safe characters, inside the uploads folder.
    const name = basename(file.name.replace(/\\/g, '/')).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 100) || 'markup.ane';
    const path = join(o.uploads, name);
    if (!resolve(path).startsWith(resolve(o.uploads) + sep)) return steer(c, { error: 'that file name cannot be used' }, 400);
    writeFileAtomic(path, new Uint8Array(await file.arrayBuffer()), { mkdir: true });
    const shown = relative(process.cwd(), path) || path;
    const report = await importFiles(store, [shown]);
    const r = report.files[0]!;
    if (r.errors.length > 0) return steer(c, { error: r.errors.map((e) => e.toLine()).join('\n') }, 400);
    return c.redirect(withNote('/steer', `${name}: ${r.status}, ${r.nodes} author nodes${report.unsearched.length > 0 ? `; ${report.unsearched.length} meta word(s) never searched: seed` : ''}`), 303);
  });
  app.post('/seed', (c) => (jobs.start('seed', []) ? c.redirect('/steer', 303) : steer(c, { error: 'a seed or harvest is running; stop it first' }, 400)));
  app.post('/harvest', async (c) => {
    const body = await c.req.parseBody();
    const max = String(body['max-pages'] ?? '').trim();
    if (max !== '' && !/^[1-9]\d{0,6}$/.test(max)) return steer(c, { error: `pages must be a whole number from 1 to 1000000 (got "${max.slice(0, 20)}")` }, 400);
    const started = jobs.start('harvest', ['--progress', 'json', ...(max ? ['--max-pages', max] : [])]);
    return started ? c.redirect('/steer', 303) : steer(c, { error: 'a seed or harvest is running; stop it first' }, 400);
  });
  app.post('/harvest/stop', (c) => c.redirect(withNote('/steer', jobs.stop() ? 'stopping: the pages in flight are finished and saved' : 'nothing was running'), 303));

  // Pictures.
  app.get('/wheel', async (c) => c.html(wheelPage({
    top: await store.topDomains(50), timeline: timeline(await store.nodeTimes(TIMELINE_NODES), 12, 6),
    words: await store.listMetaWords(), runs: await store.runs(10),
  })));
  app.get('/events', (c) => streamSSE(c, async (sse) => {
    let alive = true;
    sse.onAbort(() => { alive = false; });
    while (alive) {
      await sse.writeSSE({
        event: 'state',
        data: JSON.stringify({
          running: jobs.running(),
          job: String(await jobBlock(jobs.current())),
          wheel: String(await wheelFigure(await store.topDomains(50))),
        }),
      });
      await sse.sleep(1000);
    }
  }));

  app.onError((err, c) => {
    if (err instanceof HTTPException) return err.getResponse();
    if (isUserError(err)) return c.text(`anwc studio: ${err.toLine()}\n`, 400);
    process.stderr.write(`anwc serve: ${c.req.method} ${c.req.path} failed: ${err.message}\n`);
    return c.text('anwc studio: that failed on the server; its terminal says why\n', 500);
  });
  return app;
}
