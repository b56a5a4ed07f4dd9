import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract } from '../../src/extract/index.js';
import { parseDom } from '../../src/html/index.js';
import { DEFAULT_HEURISTICS } from '../../src/text/index.js';

const P1 = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
const P2 = 'From the gallery she could see the whole bay, and the fishing boats were small and dark against the silver water.';
const P3 = 'Nobody in the village remembered when the light was built, but everyone knew the story of the night it went dark.';
const narrative = (html: string) => extract(parseDom(html), 'narrative', { heuristics: DEFAULT_HEURISTICS });
const thesis = (html: string) => extract(parseDom(html), 'thesis', { heuristics: DEFAULT_HEURISTICS });
const texts = (r: ReturnType<typeof extract>) => r.kept.map((k) => k.text);
const page = (article: string, around = '') =>
  `<html><body><nav><p>${P3.replace('village', 'menu')}</p></nav>${around}<div class="article-body">${article}</div><footer><p>${P2.replace('bay', 'footer')}</p></footer></body></html>`;

test('narrative reads the main content only: not the navigation, the footer or a comment thread beside it', () => {
  const html = page(`<p>${P1}</p><p>${P2}</p><p>${P3}</p>`, `<div class="comments"><p>${P1.replace('keeper', 'commenter')}</p></div>`);
  assert.deepEqual(texts(narrative(html)), [P1, P2, P3]);
  assert.equal(texts(thesis(html)).length, 6, 'the thesis reads every paragraph of the page');
});

test('narrative reads list items, quotations and the text a div holds itself; thesis only p and table', () => {
  const html = page(`<p>${P1}</p><div>${P2}</div><blockquote>${P3}</blockquote><ul><li>${P1.replace('dusk', 'dawn')}</li></ul>`);
  assert.deepEqual(texts(narrative(html)), [P1, P2, P3, P1.replace('dusk', 'dawn')]);
  const t = texts(thesis(html));
  assert.ok(t.includes(P1) && !t.includes(P2) && !t.includes(P3) && !t.includes(P1.replace('dusk', 'dawn')), 'the thesis reads only the p');
});

test('a story written as text runs in one div, parted by blank lines, is read paragraph by paragraph', () => {
  assert.deepEqual(texts(narrative(page(`<div>${P1}<br><br>${P2}<br>\n<br>${P3}</div>`))), [P1, P2, P3]);
});

test('a block mostly of links is a menu, dropped with its reason', () => {
  const links = Array.from({ length: 8 }, (_, i) => `<a href="/${i}">Stories of the sea number ${i}</a>`).join(', ');
  const r = narrative(page(`<p>${P1}</p><p>${links}, and more.</p><p>${P2}</p>`));
  assert.deepEqual(texts(r), [P1, P2]);
  assert.equal(r.rejected['link-density'], 1);
});

test('a short paragraph between kept ones stays; a heading stays when the text it heads does; alone, neither', () => {
  const r = narrative(page(`<h2>The night of the storm</h2><p>${P1}</p><p>He did not answer.</p><p>${P2}</p><h3>Related</h3>`));
  assert.deepEqual(texts(r), ['The night of the storm', P1, 'He did not answer.', P2]);
  assert.equal(r.rejected['heading-alone'], 1);
  const alone = narrative(page(`<p>${P1}</p><p>${P2}</p><p>Share this</p>`));
  assert.ok(!texts(alone).includes('Share this'), 'a fragment with no sentence end after the last kept block');
  assert.equal(alone.rejected['short-alone'], 1);
});

test('at the edge of the story a short sentence or a line of a few words stays; inside it, a menu between paragraphs does not part them', () => {
  const menu = Array.from({ length: 6 }, (_, i) => `<a href="/${i}">Chapter ${i}</a>`).join(' ');
  const r = narrative(page(`<p>Tags:</p><p>${P1}</p><p>${menu}</p><p>yes</p><p>${P2}</p><p>by the harbour master</p><p>He never came back.</p>`));
  assert.deepEqual(texts(r), [P1, 'yes', P2, 'by the harbour master', 'He never came back.']);
  assert.equal(r.rejected['link-density'], 1);
  assert.equal(r.rejected['short-alone'], 1, '"Tags:" before the story: two words, no sentence');
  assert.deepEqual(texts(narrative(page('<p>He never came back.</p><p>by the harbour master</p>'))), [], 'no paragraph passed every rule: no story to stand near');
});

test('the headline is the page\'s name, not its text: the h1, and a heading or a line of the title\'s words go; a sentence of them stays', () => {
  const title = '<title>The Night of the Storm | Harbour Gazette</title>';
  const html = page(`<h2>The night of the storm</h2><div>Harbour Gazette</div><p>${P1}</p><h2>The keeper</h2><p>${P2}</p><p>The storm.</p>`).replace('<html>', `<html><head>${title}</head>`);
  const r = narrative(html);
  assert.deepEqual(texts(r), [P1, 'The keeper', P2, 'The storm.']);
  assert.equal(r.rejected['title'], 2);
  const untitled = html.replace(title, '').replace('<div>Harbour Gazette</div>', '');
  assert.equal(texts(narrative(untitled))[0], 'The night of the storm', 'with no title, the heading heads the story');
  const h1 = narrative(untitled.replace('<h2>The night of the storm</h2>', '<h1>The night of the storm</h1>'));
  assert.ok(!texts(h1).includes('The night of the storm'), 'an h1 is the headline, title or none');
  assert.equal(h1.rejected['title'], 1);
});

test('after the story\'s last plain paragraph, blocks with many linked words are what sites put under a story; a link inside the story stays', () => {
  const cited = P2.replace('fishing boats', '<a href="/boats">fishing boats</a>');
  const signUp = 'Get the stories of the coast in your inbox: <a href="/news">sign up for our newsletter</a> today.';
  const follow = 'The keeper wrote this. <a href="/k">Follow him</a> on the wireless.';
  const r = narrative(page(`<p>${P1}</p><p>${cited}</p><p>${P3}</p><p>${signUp}</p><p>${follow}</p>`));
  assert.deepEqual(texts(r), [P1, P2, P3]);
  assert.equal(r.rejected['linked-tail'], 2);
  assert.deepEqual(texts(narrative(page(`<p>${P1}</p><p>${cited}</p>`))), [P1, P2], 'the last paragraph has linked words in an eighth of its text: it is the story');
});

test('a heading heads its text across a dropped block between (a shop\'s link under a product heading)', () => {
  const shop = '<ul><li><a href="/buy">Buy it at the harbour shop</a></li></ul>';
  assert.deepEqual(texts(narrative(page(`<p>${P1}</p><h2>The brass lamp of the tower</h2>${shop}<p>${P2}</p>`))), [P1, 'The brass lamp of the tower', P2]);
});

test('citation markers and typography are cleaned before the rules read the text', () => {
  const r = narrative(page(`<p>${P1.replace('dusk,', 'dusk,[2]').replace('lamp', '\u201Clamp\u201D')}</p><p>${P2}</p>`));
  assert.equal(texts(r)[0], P1.replace('lamp', '"lamp"'));
  assert.ok(!texts(thesis(page(`<p>${P1.replace('dusk,', 'dusk,[2]')}</p>`))).some((t) => t.includes('keeper')), 'the thesis rejects the bracket');
});

test('one or two special characters are judged on the rest of the paragraph; a price list is not narrative', () => {
  const priced = `${P1} The ticket cost $4 and the ferry was 20% late.`;
  assert.deepEqual(texts(narrative(page(`<p>${priced}</p><p>${P2}</p>`)))[0], priced);
  assert.ok(!texts(thesis(page(`<p>${priced}</p>`))).includes(priced));
  const list = 'Lamp oil $4, wick $2, glass $9, brass polish $3, matches $1, and the rope was $12 for the whole coil today.';
  const r = narrative(page(`<p>${P1}</p><p>${list}</p><p>${P2}</p>`));
  assert.ok(!texts(r).includes(list), 'a list of figures is not kept even inside the story');
  assert.equal(r.rejected['figures'], 1);
  const three = `${P3} It cost $4 then, $9 now, and [the keeper] said so.`;
  assert.ok(!texts(narrative(page(`<p>${three}</p>`))).includes(three), 'three specials in prose: rejected alone');
  assert.ok(texts(narrative(page(`<p>${P1}</p><p>${three}</p><p>${P2}</p>`))).includes(three), 'and kept inside the story');
});

test('a page not written in English is judged without the English stop-word rule', () => {
  const fr = 'Le gardien monta les marches de la tour au crépuscule, et la lampe fut allumée avant que le premier bateau ne contourne la pointe.';
  const fr2 = 'Depuis la galerie, elle voyait toute la baie, et les bateaux de pêche étaient petits et sombres sur l’eau argentée.';
  assert.deepEqual(texts(narrative(page(`<p>${fr}</p><p>${fr2}</p>`))), [fr, fr2.replace('’', "'")]);
  assert.ok(!texts(thesis(page(`<p>${fr}</p><p>${fr2}</p>`))).includes(fr));
});

test('a block longer than a node may be is cut between sentences', () => {
  const long = Array.from({ length: 80 }, () => P1).join(' ');
  const r = narrative(page(`<p>${long}</p>`));
  assert.ok(r.kept.length >= 2 && r.kept.every((k) => k.text.length <= DEFAULT_HEURISTICS.maxChars));
  assert.equal(r.kept.map((k) => k.text).join(' '), long);
});
