import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract } from '../../src/extract/index.js';
import { parseDom } from '../../src/html/index.js';
import { nameWords } from '../../src/html/main-content.js';
import { DEFAULT_HEURISTICS } from '../../src/text/index.js';

/*
 * Pages of our own writing, one for each general cause that made the narrative extractor lose
 * text (or keep chrome) on pages it was never tuned on (issue 32). Each failed before its fix.
 */

const S = [
  'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.',
  'From the gallery she could see the whole bay, and the fishing boats were small and dark against the silver water.',
  'Nobody in the village remembered when the light was built, but everyone knew the story of the night it went dark.',
  'The storm came in from the west that evening, and by midnight the waves were breaking over the harbour wall.',
  'In the morning the keeper walked down to the shore and counted the boats that had come home in the dark.',
  'Her brother had sailed for the islands a week before, and no letter had come from him since the spring tide.',
] as const;
const narrative = (html: string) => extract(parseDom(html), 'narrative', { heuristics: DEFAULT_HEURISTICS }).kept.map((k) => k.text);
const paras = (xs: readonly string[]) => xs.map((x) => `<p>${x}</p>`).join('');

test('what a browser does not show is not read: hidden, aria-hidden, display:none, visibility:hidden, template', () => {
  const hidden = [
    `<div hidden><p>${S[3]}</p></div>`,
    `<div aria-hidden="true"><p>${S[4]}</p></div>`,
    `<div style="color: red; display:none"><p>${S[5]}</p></div>`,
    `<section style="visibility: hidden !important"><p>${S[3].replace('storm', 'gale')}</p></section>`,
    `<template><p>${S[4].replace('morning', 'evening')}</p></template>`,
  ].join('');
  const html = `<html><body><article>${paras(S.slice(0, 3))}${hidden}</article></body></html>`;
  assert.deepEqual(narrative(html), S.slice(0, 3));
  // A style that only names a hidden thing elsewhere (a transition, a custom property) hides nothing.
  assert.deepEqual(narrative(`<html><body><article>${paras(S.slice(0, 2))}<p style="transition: display none; --x: hidden">${S[2]}</p></article></body></html>`), S.slice(0, 3));
});

test('class and id names are read as words: a cue inside another word is no cue', () => {
  assert.deepEqual(nameWords('postBody entry-content sidebar_left'), ['post', 'body', 'entry', 'content', 'sidebar', 'left']);
  // "ad" inside "non-adaptive", "nav" inside "canvas", "meta" inside "metallic": the story stays.
  for (const cls of ['layout-non-adaptive', 'canvas-wrap', 'metallic']) {
    const html = `<html><body><div class="${cls}">${paras(S.slice(0, 3))}</div><div class="links">${paras([S[3]])}</div></body></html>`;
    assert.ok(narrative(html).includes(S[0]), `a story in class="${cls}" is read`);
  }
  // The cues themselves, alone and in compounds, still mark boilerplate beside a story.
  for (const cls of ['ad', 'topnav', 'site-footer', 'commentsList', 'share-bar', 'kommentare', 'rodape']) {
    const html = `<html><body><article>${paras(S.slice(0, 3))}</article><div class="${cls}">${paras([S[4]])}</div></body></html>`;
    assert.deepEqual(narrative(html), S.slice(0, 3), `class="${cls}" is boilerplate`);
  }
});

test('an id made of a heading\'s words is an anchor, not a cue', () => {
  const elsewhere = S.slice(0, 5).map((x) => x.replace(/keeper|village|storm|morning|brother/, 'stranger')).map((x) => `<p>${x}</p>`).join('');
  const html = `<html><body><div class="content"><div class="section" id="share-the-lamp-with-the-village">${paras(S)}</div></div><div class="elsewhere">${elsewhere}</div></body></html>`;
  const got = narrative(html);
  for (const s of S) assert.ok(got.includes(s), `kept: ${s.slice(0, 30)}`);
});

test('an article in many short sections (steps, chapters) is read whole, not its best section alone', () => {
  const step = (i: 0 | 1 | 2 | 3 | 4) => `<div class="step"><h3>Step ${i + 1}</h3><div class="step-copy">${paras([S[i]])}</div><figure><img src="${i}.jpg"></figure></div>`;
  const html = `<html><body><div class="steps">${([0, 1, 2, 3, 4] as const).map(step).join('')}</div><div class="more"><p>${S[5]}</p></div></body></html>`;
  const got = narrative(html);
  for (const s of S.slice(0, 5)) assert.ok(got.includes(s), `kept: ${s.slice(0, 30)}`);
});

test('a page where no paragraph passed every rule still gives its story when its lines only lack a capital or a full stop', () => {
  const lower = S.slice(0, 3).map((x) => x.toLowerCase().replace(/\.$/, ''));
  assert.deepEqual(narrative(`<html><body><article>${paras(lower)}</article></body></html>`), lower);
  // Lines that fail more than that (too short to be paragraphs) are still no story.
  assert.deepEqual(narrative('<html><body><article><p>and then the lamp</p><p>by the harbour master</p></article></body></html>'), []);
});

test('a story the page holds twice (another layout of it) is read once; a paragraph repeated alone stays', () => {
  const copy = paras(S.slice(0, 4));
  const twice = narrative(`<html><body><article><div class="wide">${copy}</div><div class="narrow">${copy}</div></article></body></html>`);
  assert.deepEqual(twice, S.slice(0, 4));
  const refrain = narrative(`<html><body><article>${paras([S[0], S[1], S[0], S[2], S[0]])}</article></body></html>`);
  assert.deepEqual(refrain, [S[0], S[1], S[0], S[2], S[0]]);
});

test('after the story, a closing paragraph with inline references stays; a call to follow a link goes', () => {
  const closing = 'The lamp was finally <a href="/history">restored in 1998</a> by a group of volunteers from the village, who still meet every spring to <a href="/club">clean the lens</a> and paint the gallery rail.';
  const call = 'Sign up for the harbour newsletter to get every new story about the coast in <a href="/signup">your inbox each week</a>';
  const follow = 'Follow the keeper and her lighthouse on <a href="/tw">Twitter</a> and <a href="/fb">Facebook</a>.';
  const html = `<html><body><article>${paras(S.slice(0, 3))}<p>${closing}</p><p>${call}</p><p>${follow}</p></article></body></html>`;
  const got = narrative(html);
  assert.ok(got.some((t) => t.startsWith('The lamp was finally restored')), 'the closing paragraph with references is kept');
  assert.ok(!got.some((t) => t.startsWith('Sign up')), 'the sign-up line is dropped');
  assert.ok(!got.some((t) => t.startsWith('Follow')), 'the follow line is dropped');
});

test('a story told as loose text beside a <p> headline, parted by blank lines, is scored and read', () => {
  const aside = `<div class="elsewhere"><p>${S[5]}</p><p>${S[5].replace('brother', 'cousin')}</p></div>`;
  for (const wrap of ['div', 'td']) {
    const story = `<${wrap} class="x"><p><b>The night the light went dark</b></p>${S[0]} ${S[1]}<br><br>${S[2]} ${S[3]}<br><br>${S[4]}</${wrap}>`;
    const html = `<html><body>${wrap === 'td' ? `<table><tr>${story}</tr></table>` : story}${aside}</body></html>`;
    const got = narrative(html);
    for (const s of S.slice(0, 5)) assert.ok(got.some((t) => t.includes(s)), `in a ${wrap}, kept: ${s.slice(0, 30)}`);
  }
});

test('the byline, the date line, a rights line and a line to type are labels, not narrative', () => {
  const html = `<html><body><article><p>By Martha Keel</p><p>Published November 18, 2019 at 11:04 PM</p>${paras(S.slice(0, 3))}`
    + '<pre>$ sudo apt-get install lighthouse-lamp</pre>'
    + `${paras(S.slice(3, 5))}<p>The contents of this site are ©2019 Harbour Gazette Publishing, a part of Coast News.</p></article></body></html>`;
  const r = extract(parseDom(html), 'narrative', { heuristics: DEFAULT_HEURISTICS });
  assert.deepEqual(r.kept.map((k) => k.text), S.slice(0, 5));
  assert.deepEqual([r.rejected['byline'], r.rejected['command'], r.rejected['rights']], [2, 1, 1]);
});

test('when the main content keeps little, the whole page is read, and its story wins when it holds more', () => {
  const lists = Array.from({ length: 8 }, (_, i) => `<p>Harbour ${i} | pier | dock | quay | jetty | wharf | slip | mole | breakwater | marina | berth | anchorage</p>`).join('');
  const html = `<html><body><div class="index">${lists}</div><div class="widget-area">${paras(S)}</div></body></html>`;
  assert.deepEqual(narrative(html), S);
});

test('at the edge of a Japanese story, menu items of a few characters are not kept as its lines', () => {
  const story = ['肉をくわえたイヌが、橋を渡っていました。ふと下を見ると、川の中にも肉をくわえたイヌがいます。', 'イヌは、その肉もほしくなって、川の中のイヌに向かって大きな声でほえました。すると、くわえていた肉は川の中に落ちてしまいました。'];
  const menu = ['きょうの記念日', 'きょうの誕生花', '恋の誕生日占い'];
  const got = narrative(`<html><body><div class="x">${paras(story)}${paras(menu)}</div></body></html>`);
  assert.deepEqual(got, story);
});

test('where a page has several <h1>, the first names the page and the others head its sections', () => {
  const html = `<html><body><article><h1>The lighthouse</h1><h1>The keeper</h1>${paras(S.slice(0, 2))}<h1>The storm</h1>${paras(S.slice(3, 5))}</article></body></html>`;
  assert.deepEqual(narrative(html), ['The keeper', S[0], S[1], 'The storm', S[3], S[4]]);
  assert.deepEqual(narrative(`<html><body><article><h1>The lighthouse</h1>${paras(S.slice(0, 2))}</article></body></html>`), S.slice(0, 2));
});

test('a paragraph in a wrapper of its own beside the story (an intro, a standfirst) is read with it', () => {
  const html = `<html><body><div class="wrap"><div class="intro-x"><p>${S[5]}</p></div><div class="story-copy">${paras(S.slice(0, 4))}</div></div></body></html>`;
  assert.deepEqual(narrative(html), [S[5], ...S.slice(0, 4)]);
});

test('the pieces of an article parted by advertisements are read together though each carries its own number', () => {
  const html = `<html><body><div class="column"><div class="story-text story-text-1">${paras(S.slice(0, 2))}</div><div class="ad"><p>Advertisement</p></div></div>`
    + `<div class="column-b"><div class="story-text story-text-2">${paras(S.slice(2, 5))}</div></div></body></html>`;
  assert.deepEqual(narrative(html), S.slice(0, 5));
});

test('a story parted at each figure into wrappers of one class is read whole, though the last part is short', () => {
  const part = (xs: readonly string[]) => `<div class="part"><div class="col">${paras(xs)}</div></div>`;
  const figure = '<div class="rule"><figure><img src="1.jpg"><figcaption>The tower</figcaption></figure></div>';
  const html = `<html><body><section class="x">${part(S.slice(0, 5))}${figure}${part([S[5]])}</section></body></html>`;
  assert.deepEqual(narrative(html), S);
});

test('a list typed as lines, each opened by a bullet mark, is read: its bullets are not markup', () => {
  const items = ['the keeper fixed the lamp in the tower', 'the harbour wall was built up after the storm', 'new boats came round the point in the spring', 'the gallery rail was painted white again'];
  const typed = (mark: string) => `<html><body><article><p>${items.map((x) => `${mark} ${x}`).join('<br>')}</p></article></body></html>`;
  assert.deepEqual(narrative(typed('*')), [items.map((x) => `* ${x}`).join(' ')]);
  assert.deepEqual(narrative(typed('•')), [items.map((x) => `• ${x}`).join(' ')]);
  // The same marks inside the lines are special characters as before.
  const inside = `<html><body><article><p>${items.map((x) => x.replace(' ', ' * ')).join('<br>')}</p></article></body></html>`;
  assert.deepEqual(narrative(inside), []);
});

test('an appeal to sign up or subscribe at the story\'s start or end is not the story; inside it, the same words stay', () => {
  const opening = 'Start every morning with the Harbour Letter, the coast\'s favourite read at breakfast. Sign up for the free weekly letter.';
  const closing = 'There is plenty more where this came from. Subscribe today and get every new story about the coast delivered to your door.';
  const inside = 'Subscribe to the lamp fund, the keeper told the village, and the light will burn for another hundred years.';
  const html = `<html><body><article>${paras([opening, S[0], S[1], inside, S[2], closing])}</article></body></html>`;
  assert.deepEqual(narrative(html), [S[0], S[1], inside, S[2]]);
});
