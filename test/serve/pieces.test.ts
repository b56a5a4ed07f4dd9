import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { pieSlices } from '../../src/serve/pie.js';
import { parseStoryState, steppedBack, storyQuery, swapped, HISTORY_MAX } from '../../src/serve/story-state.js';
import { hostServed, servedNames } from '../../src/serve/hosts.js';
import { headed } from '../../src/serve/pages/story.js';
import { timeline } from '../../src/serve/timeline.js';
import { clickablePieces } from '../../src/serve/words.js';

describe('the evolving page: clickable words', () => {
  it('marks each word whose stem is a meta word, and the pieces join back to the text', () => {
    const stems = new Set(['garden', 'rose']);
    const pieces = clickablePieces('The old gardens, and Roses: a garden’s rose-bed.', stems);
    assert.deepEqual(pieces.filter((p) => p.stem).map((p) => [p.text, p.word, p.stem]),
      [['gardens', 'gardens', 'garden'], ['Roses', 'Roses', 'rose'], ['garden’s', 'garden', 'garden'], ['rose', 'rose', 'rose']],
      'a possessive sends its word without the \'s');
    assert.equal(pieces.map((p) => p.text).join(''), 'The old gardens, and Roses: a garden’s rose-bed.');
    assert.deepEqual(clickablePieces('', stems), []);
    assert.deepEqual(clickablePieces('nothing here', stems), [{ text: 'nothing here' }]);
  });

  it('joins back any text exactly', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      assert.equal(clickablePieces(text, new Set(['a', 'the'])).map((p) => p.text).join(''), text);
    }));
  });
});

describe('the studio\'s Host check', () => {
  it('answers loopback names, IP addresses and the --host given; no other name, and no missing or malformed Host', () => {
    const lan = servedNames('Studio.LAN');
    for (const ok of ['localhost', 'localhost:8700', '127.0.0.1:8700', '[::1]:8700', 'studio.lan:8700', '192.0.2.7:8700', '[2001:db8::1]']) assert.ok(hostServed(ok, lan), ok);
    for (const no of [undefined, '', 'evil.example', 'evil.example:8700', 'studio.lan.evil.example', 'localhost/x', 'user@localhost', 'localhost?x', 'local host']) assert.ok(!hostServed(no, lan), String(no));
    assert.ok(hostServed('[::1]:8700', servedNames('::1')));
    assert.ok(!hostServed('studio.lan', servedNames('127.0.0.1')));
  });
});

describe('the evolving page: its state in the URL', () => {
  const story = [1, 2, 3];
  it('starts from the story and swaps, steps back, and round-trips through the query', () => {
    const s0 = parseStoryState({}, story);
    assert.deepEqual(s0, { ids: [1, 2, 3], history: [], seed: null, step: 0 });
    const s1 = swapped({ ...s0, seed: 'x' }, 1, 9);
    assert.deepEqual(s1, { ids: [1, 9, 3], history: [{ slot: 1, replaced: 2 }], seed: 'x', step: 1 });
    const again = parseStoryState(Object.fromEntries(new URLSearchParams(storyQuery(s1))), story);
    assert.deepEqual(again, s1);
    assert.deepEqual(steppedBack(s1)!.ids, [1, 2, 3]);
    assert.equal(steppedBack(s0), undefined);
  });

  it('falls back to the story when the URL does not fit it, and drops history it cannot use', () => {
    assert.deepEqual(parseStoryState({ n: '1,2' }, story).ids, story, 'another number of slots: the markup changed');
    assert.deepEqual(parseStoryState({ n: '1,x,3' }, story).ids, story);
    assert.deepEqual(parseStoryState({ n: '4,5,6', h: '7.1' }, story).history, [], 'a slot that is not there');
    assert.deepEqual(parseStoryState({ n: '4,5,6', h: '1.1;drop' }, story).history, []);
    assert.equal(parseStoryState({ step: '-1' }, story).step, 0);
  });

  it('remembers at most HISTORY_MAX swaps', () => {
    let s = parseStoryState({}, story);
    for (let i = 0; i < HISTORY_MAX + 5; i++) s = swapped(s, 0, 100 + i);
    assert.equal(s.history.length, HISTORY_MAX);
    assert.equal(s.history[0]!.replaced, 104);
  });
});

describe('the wheel as a pie', () => {
  it('gives each value its share, in order, and closes every sector', () => {
    const slices = pieSlices([{ label: 'a', value: 3 }, { label: 'b', value: 1 }], 100);
    assert.deepEqual(slices.map((s) => [s.label, s.share]), [['a', 0.75], ['b', 0.25]]);
    assert.equal(slices[0]!.path, 'M 100 100 L 100 0 A 100 100 0 1 1 0 100 Z', 'three quarters: the large arc, ending at nine o\'clock');
    assert.equal(slices[1]!.path, 'M 100 100 L 0 100 A 100 100 0 0 1 100 0 Z');
    assert.match(pieSlices([{ label: 'all', value: 5 }], 10)[0]!.path, /^M 10 0 A 10 10 0 1 1 9\.999 0 Z$/, 'a whole is a circle');
    assert.deepEqual(pieSlices([{ label: 'none', value: 0 }], 10), []);
  });
});

describe('nodes per domain over time', () => {
  const n = (host: string, at: number) => ({ sourceUrl: `http://${host}/p`, createdAt: at });
  it('counts each domain\'s nodes in equal spans, the top domains a row each and the rest one row', () => {
    const t = timeline([n('a.test', 0), n('a.test', 5), n('b.test', 9), n('c.test', 9), n('a.test', 9), n('d.test', 1)], 2, 2);
    assert.deepEqual(t.starts, [0, 5]);
    assert.equal(t.spanMs, 5);
    assert.deepEqual(t.series, [
      { host: 'a.test', counts: [1, 2] },
      { host: 'b.test', counts: [0, 1] },
      { host: 'other domains', counts: [1, 1] },
    ]);
  });

  it('holds every node once, whatever the times', () => {
    fc.assert(fc.property(fc.array(fc.record({ h: fc.constantFrom('a', 'b', 'c', 'd'), at: fc.integer({ min: 0, max: 1e12 }) }), { maxLength: 60 }), fc.integer({ min: 1, max: 20 }), (xs, spans) => {
      const t = timeline(xs.map((x) => n(`${x.h}.test`, x.at)), spans, 2);
      assert.equal(t.series.reduce((a, s) => a + s.counts.reduce((b, c) => b + c, 0), 0), xs.length);
      if (xs.length > 0) assert.equal(t.starts.length, spans);
    }));
  });
});

describe('the evolving page: headings', () => {
  it('names a file where it begins when there are several, and a named section where it begins', () => {
    const files = [
      { path: '/s/a.ane', sections: [{ name: 'begin', nodeIds: [1, 2] }, { name: null, nodeIds: [3] }] },
      { path: '/s/b.ane', sections: [{ name: '', nodeIds: [] }, { name: 'end', nodeIds: [4] }] },
    ];
    assert.deepEqual(headed(files), [
      { slot: 0, file: 'a.ane', section: 'begin' }, { slot: 1 }, { slot: 2 }, { slot: 3, file: 'b.ane', section: 'end' },
    ]);
    assert.deepEqual(headed([files[0]!]), [{ slot: 0, section: 'begin' }, { slot: 1 }, { slot: 2 }], 'one file needs no name');
  });
});
