import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvField, csvLine, exportSentences, toAne, toCsvLine, toJsonLine } from '../../src/feed/formats.js';
import { parseMarkup } from '../../src/markup/index.js';
import type { StoredNode } from '../../src/store/store.js';

const node = (over: Partial<StoredNode>): StoredNode => ({
  id: 1, origin: 'crawler', text: 'One. Two?', sentences: ['One. Two?'], sourceUrl: 'http://a.test/', relevance: 0.5,
  createdAt: Date.UTC(2030, 0, 1), metaWords: [{ id: 1, word: 'cookie', stem: 'cooki' }], status: 'ok', checkedAt: null, review: 'unreviewed', ...over,
});

describe('export formats', () => {
  it('cuts a crawler paragraph into sentences and keeps an author\'s own', () => {
    assert.deepEqual(exportSentences(node({})), ['One.', 'Two?']);
    assert.deepEqual(exportSentences(node({ origin: 'author', sentences: ['One. Two?'] })), ['One. Two?']);
    assert.deepEqual(exportSentences(node({ text: '中文的句子。第二句。' })), ['中文的句子。', '第二句。']);
  });

  it('quotes CSV fields by RFC 4180', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('cr\r'), '"cr\r"');
    assert.equal(csvLine(['1', '', 'x,y']), '1,,"x,y"\r\n');
    assert.equal(toCsvLine(node({ text: 'He said, "go".' })), '1,crawler,cookie,"He said, ""go"".",http://a.test/,0.5,2030-01-01T00:00:00.000Z\r\n');
  });

  it('neutralises CSV cells a spreadsheet would run as formulas (OWASP CSV injection)', () => {
    assert.equal(csvField('=HYPERLINK("http://evil.test","x")'), '"\'=HYPERLINK(""http://evil.test"",""x"")"');
    assert.equal(csvField('+1+1'), "'+1+1");
    assert.equal(csvField('-2+3'), "'-2+3");
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField('\t=1'), "'\t=1");
    assert.equal(csvField('\r=1'), '"\'\r=1"');
    assert.equal(csvField('a=b'), 'a=b', 'only a leading sign is a formula');
    assert.match(toCsvLine(node({ text: '=cmd|\' /C calc\'!A0' })), /^1,crawler,cookie,'=cmd\|/);
  });

  it('writes one JSON object a line', () => {
    const line = toJsonLine(node({}));
    assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'));
    assert.deepEqual(JSON.parse(line), {
      id: 1, origin: 'crawler', text: 'One. Two?', sentences: ['One.', 'Two?'], meta: ['cookie'], stems: ['cooki'],
      sourceUrl: 'http://a.test/', relevance: 0.5, created: '2030-01-01T00:00:00.000Z',
    });
  });

  it('groups nodes by meta set in sections, with text escaped so it reads back the same', () => {
    const tricky = 'Braces {like} these, a back\\slash and "quotes". שלום 🌍.';
    const nodes = [
      node({ id: 1, text: tricky }),
      node({ id: 2, text: 'Other.', metaWords: [{ id: 2, word: 'milk', stem: 'milk' }] }),
      node({ id: 3, text: 'Same set.', metaWords: [{ id: 1, word: 'cookie', stem: 'cooki' }] }),
      node({ id: 4, text: 'No meta.', metaWords: [] }),
    ];
    const doc = parseMarkup(toAne(nodes), { file: 'export.ane' });
    const sections = doc.items.filter((i) => i.kind === 'section');
    assert.equal(sections.length, 3);
    const read = sections.flatMap((s) => (s.kind === 'section' ? s.items : [])).map((n) => (n.kind === 'node' ? [n.meta, n.sentences.join(' ')] : []));
    assert.deepEqual(read, [[['cookie'], tricky], [['cookie'], 'Same set.'], [['milk'], 'Other.'], [[], 'No meta.']]);
    assert.match(toAne(nodes), /\\id="cookie"/);
  });

  it('names each section by its words, spaces as _, a clash numbered, and keeps sets apart that join to the same letters', () => {
    const meta = (...pairs: [string, string][]) => pairs.map(([word, stem], i) => ({ id: i + 1, word, stem }));
    const nodes = [
      node({ id: 1, metaWords: meta(['Sea Wall', 'sea wall']) }),
      node({ id: 2, metaWords: meta(['sea_wall', 'sea_wal']) }),
      node({ id: 3, metaWords: meta(['ab', 'ab'], ['c', 'c']) }),
      node({ id: 4, metaWords: meta(['a', 'a'], ['bc', 'bc']) }),
      node({ id: 5, metaWords: [] }),
    ];
    const ids = [...toAne(nodes).matchAll(/\\id="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(ids, ['sea_wall', 'sea_wall-2', 'ab-c', 'a-bc', 'no-meta']);
  });

  it('gives a node whose text has no sentence break, or an author node without sentences, its text as one sentence', () => {
    assert.deepEqual(exportSentences(node({ origin: 'author', sentences: [], text: 'Only this. And this.' })), ['Only this.', 'And this.']);
    assert.deepEqual(exportSentences(node({ text: '' })), ['']);
  });
});
