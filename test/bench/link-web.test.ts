import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyOf, linkWeb, score, SITE_HOST, type LinkWeb } from '../../bench/link-web.js';

/** The linkcheck bench scores checkers against the generated truth: the web must be what the truth says. */

const shape = { seed: 1, pages: 200, sitePort: 8101, offPort: 8102 };
const refsOf = (html: string) => [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);

/** Every URL referenced from the site's pages, walking from the top as a checker does. */
function walk(web: LinkWeb): { pages: Set<string>; referenced: Set<string> } {
  const pages = new Set([web.top]);
  const referenced = new Set<string>();
  const queue = [web.top];
  while (queue.length > 0) {
    const html = web.answers.get(keyOf(queue.shift()!))!.html!;
    for (const u of refsOf(html)) {
      referenced.add(u);
      const a = web.answers.get(keyOf(u));
      if (new URL(u).hostname === SITE_HOST && a?.status === 200 && /html/.test(a.type ?? '') && !pages.has(u)) {
        pages.add(u);
        queue.push(u);
      }
    }
  }
  return { pages, referenced };
}

test('a seed and size make one web; another seed another', () => {
  const a = linkWeb(shape);
  assert.deepEqual(linkWeb(shape), a);
  assert.notDeepEqual(linkWeb({ ...shape, seed: 2 }).truth, a.truth);
  assert.deepEqual(a.kinds, { pages: 200, images: 20, pdfs: 5, offsite: 40, noHead: 5, broken: 10, moved: 10 });
  assert.deepEqual(linkWeb({ ...shape, pages: 2000 }).kinds, { pages: 2000, images: 200, pdfs: 50, offsite: 400, noHead: 50, broken: 100, moved: 100 });
  assert.throws(() => linkWeb({ ...shape, pages: 1 }), /2 pages or more/);
});

test('every page is reachable from the top, and every fault and leaf is referenced by a page', () => {
  const web = linkWeb(shape);
  const { pages, referenced } = walk(web);
  assert.equal(pages.size, shape.pages);
  for (const u of [...web.truth.broken, ...web.truth.moved, ...web.truth.noHead]) assert.ok(referenced.has(u), u);
  for (const u of referenced) assert.ok(web.answers.has(keyOf(u)), `${u} is answered`);
});

test('broken links answer 404, 410 or 500; moved ones end at a page after one to three redirects; the rest answer 200', () => {
  const web = linkWeb(shape);
  const statuses = web.truth.broken.map((u) => web.answers.get(keyOf(u))!.status);
  assert.deepEqual([...new Set(statuses)].sort(), [404, 410, 500]);
  for (const u of web.truth.moved) {
    let at = u;
    let hops = 0;
    for (let a = web.answers.get(keyOf(at))!; a.location; a = web.answers.get(keyOf(at))!) {
      assert.ok([301, 302, 308].includes(a.status), `${at}: ${a.status}`);
      at = a.location;
      hops++;
    }
    assert.ok(hops >= 1 && hops <= 3, `${u}: ${hops} hops`);
    assert.equal(web.answers.get(keyOf(at))!.status, 200);
  }
  for (const u of web.truth.noHead) assert.deepEqual([web.answers.get(keyOf(u))!.status, web.answers.get(keyOf(u))!.noHead], [200, true]);
  const faults = new Set([...web.truth.broken, ...web.truth.moved].map(keyOf));
  for (const u of walk(web).referenced) if (!faults.has(keyOf(u))) assert.equal(web.answers.get(keyOf(u))!.status, 200, u);
});

test('links stay on the bench\'s hosts and ports; some faults are on the site, some off it', () => {
  const web = linkWeb(shape);
  for (const u of walk(web).referenced) assert.match(u, /^http:\/\/(www\.site\.test:8101|o[1-5]\.offsite\.test:8102)\//);
  for (const list of [web.truth.broken, web.truth.moved]) {
    assert.ok(list.some((u) => u.includes(SITE_HOST)) && list.some((u) => u.includes('.offsite.test')), list.join(' '));
  }
});

test('a checker is scored by recall of each kind and by what it called broken or moved that is neither', () => {
  const truth = { broken: ['http://a.test/1', 'http://a.test/2'], moved: ['http://a.test/m'], noHead: [] };
  assert.deepEqual(score(truth, { broken: ['http://a.test/1', 'http://a.test/ok'], moved: ['http://A.test:80/m'] }), {
    brokenFound: 1, movedFound: 1, brokenRecall: 0.5, movedRecall: 1, falseAlarms: 1,
  });
  assert.deepEqual(score(truth, { broken: [], moved: ['http://a.test/1'] }), { brokenFound: 0, movedFound: 0, brokenRecall: 0, movedRecall: 0, falseAlarms: 1 });
});
