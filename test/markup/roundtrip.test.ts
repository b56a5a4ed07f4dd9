import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  analyzeMarkup,
  checkMarkup,
  foldSpace,
  MarkupError,
  parseMarkup,
  serializeMarkup,
  type Attribute,
  type MarkupDocument,
  type Node,
  type NodeItem,
  type Section,
  type TextRun,
  type UnknownElement,
} from '../../src/markup/index.js';
import { withoutPositions } from './positions.js';

/** Characters that stress the escaping and the columns: syntax, quotes, CJK, emoji, odd spaces. */
const TRICKY = ['{', '}', '\\', '"', '=', ',', '“', '”', '’', '海', '灯台', '🌊', '👩‍👧', 'é', ' ', '\n', '\t', '\r\n', '\u00a0', '\u2028', '\\sen', '{\\node'];
const char = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a', 'b', 'Z', '.', ' ') },
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
);
const rawText = fc.string({ unit: char, maxLength: 12 });
/** Text as the parser stores it: folded, possibly empty. */
const folded = rawText.map(foldSpace);
const run: fc.Arbitrary<TextRun> = folded.filter((t) => t !== '').map((text) => ({ kind: 'text', text }));
/** Quoted values end on their line, so generated ones hold no line break. */
const value = fc.option(rawText.map((s) => s.replace(/[\r\n]/g, '')), { nil: null });
const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,5}$/);
const GROUP_WORDS = ['section', 'node', 'sen'];
const ownName = name.filter((n) => !GROUP_WORDS.includes(n));

function attributes(reserved: string[]): fc.Arbitrary<Attribute[]> {
  const attr = fc.record({ name: name.filter((n) => !reserved.includes(n)), value }).map((a) =>
    // `\id` names a section or node and must carry a value there.
    a.name === 'id' && a.value === null ? { ...a, value: 'x' } : a,
  );
  return fc.uniqueArray(attr, { selector: (a) => a.name, maxLength: 3 });
}

/** Adjacent text runs are one run once read, so generated content never has two in a row. */
function mergeRuns<T extends { kind: string }>(items: T[]): T[] {
  const out: T[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && last.kind === 'text' && item.kind === 'text') {
      (last as unknown as TextRun).text += ` ${(item as unknown as TextRun).text}`;
    } else out.push(item.kind === 'text' ? { ...item } : item);
  }
  return out;
}

const { element, nestedElement } = fc.letrec<{ element: UnknownElement; nestedElement: UnknownElement }>((tie) => ({
  element: elementOf(ownName, tie('nestedElement')),
  // Inside an unknown group even `\node` and `\sen` are generic.
  nestedElement: elementOf(name, tie('nestedElement')),
}));

function elementOf(names: fc.Arbitrary<string>, child: fc.Arbitrary<UnknownElement>): fc.Arbitrary<UnknownElement> {
  return fc
    .record({
      name: names,
      attributes: attributes([]),
      children: fc.array(fc.oneof({ weight: 3, arbitrary: run }, { weight: 1, arbitrary: child }), { maxLength: 3, depthIdentifier: 'el' }),
    })
    .map((e) => ({ kind: 'element' as const, ...e, children: mergeRuns(e.children) }));
}

const metaWord = folded.filter((w) => w !== '' && !w.includes(','));
const node: fc.Arbitrary<Node> = fc
  .record({
    meta: fc.array(metaWord, { maxLength: 4 }),
    attributes: attributes(['meta', ...GROUP_WORDS]),
    content: fc.array(
      fc.oneof(
        { weight: 4, arbitrary: folded.map((text) => ({ kind: 'sentence' as const, text })) },
        { weight: 1, arbitrary: run },
        { weight: 1, arbitrary: element },
      ),
      { maxLength: 5 },
    ),
  })
  .map(({ meta, attributes, content }) => {
    const items = mergeRuns<NodeItem>(content);
    const sentences = items.flatMap((c) => (c.kind === 'sentence' ? [c.text] : []));
    return { kind: 'node' as const, meta, sentences, attributes, content: items };
  });

const section: fc.Arbitrary<Section> = fc.record({
  kind: fc.constant('section' as const),
  attributes: attributes(GROUP_WORDS),
  items: fc.array(fc.oneof({ weight: 4, arbitrary: node }, { weight: 1, arbitrary: element }), { maxLength: 4 }),
});

const documentArb: fc.Arbitrary<MarkupDocument> = fc.record({
  kind: fc.constant('document' as const),
  items: fc.array(fc.oneof(section, node, element), { maxLength: 4 }),
});

const RUNS = { numRuns: 400 };

test('property: a document reads back from its serialization unchanged, without errors', () => {
  fc.assert(
    fc.property(documentArb, (doc) => {
      const text = serializeMarkup(doc);
      assert.deepEqual(checkMarkup(text), []);
      assert.deepEqual(withoutPositions(parseMarkup(text)), withoutPositions(doc));
    }),
    RUNS,
  );
});

test('property: serialize is idempotent', () => {
  fc.assert(
    fc.property(documentArb, (doc) => {
      const once = serializeMarkup(doc);
      assert.equal(serializeMarkup(parseMarkup(once)), once);
    }),
    RUNS,
  );
});

/**
 * Markup-shaped noise: whatever an author's file holds, reading it never fails with anything but
 * MarkupErrors, and the document recovered from it round-trips like a clean one.
 */
const PIECES = ['{', '}', '{\\section', '{\\node', '{\\sen', '{\\note', '\\meta="a, b"', '\\meta', '\\id="x"', '\\id', '\\display',
  '\\meta=', '"', '\\', '\\{', '\\"', '=', 'word', ' ', '\n', '“', '🌊', '\\sen', '\\x="q\n'];
const noise = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...PIECES) },
      { weight: 2, arbitrary: fc.constantFrom('{\\node \\meta="sea"', '{\\sen words}', '}}') },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 2 }) },
    ),
    { maxLength: 60 },
  )
  .map((p) => p.join(''));

test('property: any input gives MarkupErrors only, and what was recovered round-trips', () => {
  fc.assert(
    fc.property(noise, (text) => {
      const { document, errors } = analyzeMarkup(text, { file: 'noise.ane' });
      for (const e of errors) {
        assert.ok(e instanceof MarkupError);
        assert.ok(e.line! >= 1 && e.col! >= 1);
      }
      const canonical = serializeMarkup(document);
      assert.deepEqual(checkMarkup(canonical), []);
      const again = parseMarkup(canonical);
      assert.deepEqual(withoutPositions(again), withoutPositions(document));
      assert.equal(serializeMarkup(again), canonical);
    }),
    { numRuns: 1500 },
  );
});

/** The same document written with arbitrary layout: whitespace never changes what is read. */
test('property: layout whitespace between and inside groups does not change the document', () => {
  const gap = fc.constantFrom(' ', '\n', '\r\n', '\n\t  ', '   ');
  fc.assert(
    fc.property(documentArb, fc.infiniteStream(gap), (doc, gaps) => {
      const next = () => gaps.next().value as string;
      const canonical = serializeMarkup(doc);
      // Every canonical space or newline outside a quoted value becomes a random layout gap.
      let messy = '';
      for (let i = 0; i < canonical.length; i++) {
        const c = canonical[i]!;
        if (c === '\\') {
          const control = /^\\[A-Za-z][A-Za-z0-9_-]*="/.exec(canonical.slice(i));
          // Copy a control word with its quoted value, or an escape pair, as it stands.
          const end = control ? closingQuote(canonical, i + control[0].length) + 1 : i + 2;
          messy += canonical.slice(i, end);
          i = end - 1;
          continue;
        }
        messy += c === ' ' || c === '\n' ? next() : c;
      }
      assert.deepEqual(withoutPositions(parseMarkup(messy)), withoutPositions(doc));
    }),
    RUNS,
  );
});

/** Index of the `"` that ends a quoted value starting at `from`, skipping escapes. */
function closingQuote(s: string, from: number): number {
  let i = from;
  while (s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
  return i;
}
