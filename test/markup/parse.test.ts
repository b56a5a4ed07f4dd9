import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributeValue, documentNodes, parseMarkup } from '../../src/markup/index.js';
import type { Node, Section } from '../../src/markup/index.js';

// Figure 3 of the thesis, line breaks inside sentences as printed.
const FIGURE_3 = `{\\node \\meta="incorrigible, wake, refrain, halt, June, begin"
 {\\sen Will she disappear?}
 {\\sen I said to you, "be careful. Today is a strange day, and
 that was the end of it."}
 {\\sen I had written impassioned letters that expressed the
 urgency of my situation.}
}`;

// Figure 8, with the section's closing brace that the printed figure leaves out.
const FIGURE_8 =
  '{\\section \\display \\id="begin" {\\node \\meta="none, recited, start, begin" {\\sen I am revisiting a reading error.} ' +
  '{\\sen The machine demands language.} } {\\node \\meta="vision, blindness" {\\sen But what could this new loss of vision ' +
  'possibly reveal to you about yourself.} } }';

test('Figure 3: a top-level node with meta words and sentences folded to one line each', () => {
  const doc = parseMarkup(FIGURE_3, { file: 'fig3.ane' });
  assert.equal(doc.items.length, 1);
  const node = doc.items[0] as Node;
  assert.equal(node.kind, 'node');
  assert.deepEqual(node.meta, ['incorrigible', 'wake', 'refrain', 'halt', 'June', 'begin']);
  assert.deepEqual(node.sentences, [
    'Will she disappear?',
    'I said to you, "be careful. Today is a strange day, and that was the end of it."',
    'I had written impassioned letters that expressed the urgency of my situation.',
  ]);
  assert.deepEqual(node.pos, { line: 1, col: 1 });
  assert.deepEqual(node.content[1]?.pos, { line: 3, col: 2 });
});

test('Figure 8: a section with a flag and an id holds two nodes', () => {
  const doc = parseMarkup(FIGURE_8);
  const section = doc.items[0] as Section;
  assert.equal(section.kind, 'section');
  assert.equal(attributeValue(section, 'display'), true);
  assert.equal(attributeValue(section, 'id'), 'begin');
  assert.equal(attributeValue(section, 'missing'), undefined);
  const nodes = documentNodes(doc);
  assert.deepEqual(
    nodes.map((n) => n.meta),
    [['none', 'recited', 'start', 'begin'], ['vision', 'blindness']],
  );
  assert.deepEqual(nodes[1]?.sentences, ['But what could this new loss of vision possibly reveal to you about yourself.']);
});

test('meta words are trimmed, inner whitespace folded, empty words dropped', () => {
  const node = parseMarkup('{\\node \\meta="  sea ,, light\n house?, ,storm  "}'.replace('\n', ' ')).items[0] as Node;
  assert.deepEqual(node.meta, ['sea', 'light house?', 'storm']);
  const empty = parseMarkup('{\\node \\meta=""}').items[0] as Node;
  assert.deepEqual(empty.meta, []);
  const none = parseMarkup('{\\node {\\sen Hi.}}').items[0] as Node;
  assert.deepEqual(none.meta, []);
});

test('escapes in text and in quoted values', () => {
  const node = parseMarkup('{\\node \\meta="say \\"hi\\", back\\\\slash" {\\sen A \\{brace\\} and a \\\\ and a "quote".}}').items[0] as Node;
  assert.deepEqual(node.meta, ['say "hi"', 'back\\slash']);
  assert.deepEqual(node.sentences, ['A {brace} and a \\ and a "quote".']);
});

test('plain text inside a node is kept in reading order between sentences', () => {
  const node = parseMarkup('{\\node \\meta="a" just some words {\\sen A sentence.} and\n  more words}').items[0] as Node;
  assert.deepEqual(
    node.content.map((c) => [c.kind, c.kind === 'element' ? c.name : c.text]),
    [
      ['text', 'just some words'],
      ['sentence', 'A sentence.'],
      ['text', 'and more words'],
    ],
  );
  assert.deepEqual(node.sentences, ['A sentence.']);
  assert.deepEqual(node.content[2]?.pos, { line: 1, col: 53 });
});

test('unknown control words and groups are kept as generic attributes and elements', () => {
  const doc = parseMarkup(
    '{\\note \\by="me" a remark {\\sen inside a note stays generic}}\n' +
      '{\\section \\mood="grey" \\hidden {\\pause \\len="2"} {\\node \\meta="x" \\weight="3" {\\emph loud} {\\sen S.}}}',
  );
  const note = doc.items[0]!;
  assert.equal(note.kind, 'element');
  assert.equal(note.kind === 'element' && note.name, 'note');
  assert.deepEqual(note.kind === 'element' && note.children.map((c) => c.kind), ['text', 'element']);
  const section = doc.items[1] as Section;
  assert.deepEqual(
    section.attributes.map((a) => [a.name, a.value]),
    [
      ['mood', 'grey'],
      ['hidden', null],
    ],
  );
  assert.equal(section.items[0]?.kind, 'element');
  const node = section.items[1] as Node;
  assert.deepEqual(node.attributes.map((a) => [a.name, a.value]), [['weight', '3']]);
  assert.equal(node.content[0]?.kind, 'element');
  assert.deepEqual(node.sentences, ['S.']);
});

test('columns count code points, so an emoji or a CJK character is one column', () => {
  const doc = parseMarkup('{\\node \\meta="海, 🌊" {\\sen 🌊🌊 “Ahoy” 灯台.} \\late="y"}');
  const node = doc.items[0] as Node;
  assert.deepEqual(node.meta, ['海', '🌊']);
  assert.deepEqual(node.sentences, ['🌊🌊 “Ahoy” 灯台.']);
  assert.deepEqual(node.attributes[0]?.pos, { line: 1, col: 42 });
});

test('CRLF line ends and a byte-order mark read like LF', () => {
  const doc = parseMarkup('\uFEFF{\\node \\meta="a"\r\n  {\\sen one\r\n two}\r\n  {\\sen three}}\r\n');
  const node = doc.items[0] as Node;
  assert.deepEqual(node.sentences, ['one two', 'three']);
  assert.deepEqual(node.content[1]?.pos, { line: 4, col: 3 });
});

test('an empty document and one of only whitespace have no items', () => {
  assert.deepEqual(parseMarkup('').items, []);
  assert.deepEqual(parseMarkup(' \n\t\n').items, []);
});

test('control words may follow content and still belong to their group', () => {
  const node = parseMarkup('{\\node {\\sen a} \\meta="late, words"}').items[0] as Node;
  assert.deepEqual(node.meta, ['late', 'words']);
});
