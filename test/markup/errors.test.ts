import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../src/errors.js';
import { MarkupError, analyzeMarkup, checkMarkup, parseMarkup, type MarkupErrorCode } from '../../src/markup/index.js';
import type { Node, Section } from '../../src/markup/index.js';

/** `line:col code` of every error, the shape a person reads in the checker's output. */
function found(text: string): string[] {
  return checkMarkup(text, { file: 't.ane' }).map((e) => `${e.line}:${e.col} ${e.code}`);
}

function only(text: string, code: MarkupErrorCode): MarkupError {
  const errors = checkMarkup(text, { file: 't.ane' });
  assert.equal(errors.length, 1, errors.map((e) => e.toLine()).join('\n'));
  assert.equal(errors[0]!.code, code);
  return errors[0]!;
}

test('parseMarkup throws a MarkupError, a UserError whose line names file:line:col and the fix', () => {
  assert.throws(
    () => parseMarkup('{\\node \\meta="a"\n  {\\sen one}\n', { file: 'story.ane' }),
    (e: unknown) => {
      assert.ok(e instanceof MarkupError);
      assert.ok(e instanceof UserError);
      assert.equal(e.file, 'story.ane');
      assert.equal(e.toLine(), 'story.ane:1:1: unclosed `{\\node`: the file ends (line 3) before its `}`; add `}` where the group ends');
      return true;
    },
  );
});

test('an unclosed group is reported where it opens, the innermost and the outer one', () => {
  assert.deepEqual(found('{\\section \\id="a"\n  {\\node \\meta="x" {\\sen a}\n'), ['1:1 unclosed-group', '2:3 unclosed-group']);
});

test('Figure 8 as printed in the thesis lacks the section\'s closing brace', () => {
  const fig8 = '{\\section \\display \\id="begin" {\\node \\meta="vision, blindness" {\\sen But what could this reveal.} }';
  const e = only(fig8, 'unclosed-group');
  assert.match(e.message, /unclosed `\{\\section`/);
  assert.equal(e.col, 1);
});

test('a stray `}` is reported and the rest is read', () => {
  const { document, errors } = analyzeMarkup('{\\node \\meta="a" {\\sen one}}}\n{\\node \\meta="b"}');
  assert.deepEqual(errors.map((e) => `${e.line}:${e.col} ${e.code}`), ['1:29 stray-close']);
  assert.equal(document.items.length, 2);
});

test('an unterminated quoted value is reported at its quote and reading resumes on the next line', () => {
  const { document, errors } = analyzeMarkup('{\\node \\meta="sea, storm\n  {\\sen The tide came in.}}');
  assert.deepEqual(errors.map((e) => `${e.line}:${e.col} ${e.code}`), ['1:14 unterminated-value']);
  assert.equal(errors[0]!.message, 'unterminated quoted value: no closing `"` on this line');
  assert.deepEqual((document.items[0] as Node).sentences, ['The tide came in.']);
});

test('`\\meta` without a quoted value names the fix', () => {
  const bare = only('{\\node \\meta {\\sen a}}', 'needs-value');
  assert.equal(bare.toLine(), 't.ane:1:8: `\\meta` needs a quoted value; write \\meta="word, word, word"');
  const unquoted = only('{\\node\n  \\meta=sea {\\sen a}}', 'needs-value');
  assert.deepEqual([unquoted.line, unquoted.col], [2, 3]);
  const curly = only('{\\node \\meta=“sea” {\\sen a}}', 'needs-value');
  assert.match(curly.fix ?? '', /straight quotes/);
  only('{\\section \\id {\\node}}', 'needs-value');
});

test('`{\\sen` outside a node', () => {
  assert.deepEqual(found('{\\section \\id="a" {\\sen lost}}'), ['1:19 misplaced-group']);
  const e = only('{\\sen lost at the top}', 'misplaced-group');
  assert.equal(e.message, '`{\\sen` outside a node');
});

test('a node opened inside a node means a missing `}`: one error, both nodes kept', () => {
  const text = '{\\section \\id="s"\n  {\\node \\meta="a" {\\sen one.}\n  {\\node \\meta="b" {\\sen two.}}\n}';
  const { document, errors } = analyzeMarkup(text, { file: 't.ane' });
  assert.deepEqual(errors.map((e) => e.toLine()), [
    't.ane:3:3: `{\\node` cannot stand inside the `{\\node` opened at 2:3; is a `}` missing before it?',
  ]);
  const section = document.items[0] as Section;
  assert.deepEqual(
    section.items.map((n) => (n as Node).sentences),
    [['one.'], ['two.']],
  );
});

test('a sentence missing its `}` is closed by the next sentence, with one error', () => {
  const { document, errors } = analyzeMarkup('{\\node \\meta="a" {\\sen one. {\\sen two.}}');
  assert.deepEqual(errors.map((e) => `${e.col} ${e.code}`), ['29 misplaced-group']);
  assert.deepEqual((document.items[0] as Node).sentences, ['one.', 'two.']);
});

test('a section inside a section', () => {
  assert.deepEqual(found('{\\section {\\node}\n{\\section {\\node}}'), ['2:1 misplaced-group']);
});

test('text outside a node or directly in a section is located at its first letter', () => {
  assert.deepEqual(found('\n   Once upon a time {\\node \\meta="a"}'), ['2:4 misplaced-text']);
  assert.deepEqual(found('{\\section\n\t  a title\n  {\\node}}'), ['2:4 misplaced-text']);
});

test('unknown escapes, in text and in values, and a lone backslash at the end', () => {
  assert.deepEqual(found('{\\node {\\sen cost \\$5}}'), ['1:19 unknown-escape']);
  assert.deepEqual(found('{\\node \\meta="a\\b"}'), ['1:16 unknown-escape']);
  assert.deepEqual(found('{\\node {\\sen a \\ b}}'), ['1:16 unknown-escape']);
  assert.deepEqual(found('{\\node}\\'), ['1:8 unknown-escape']);
});

test('control words inside a sentence, at the top, or group words used without a brace', () => {
  assert.deepEqual(found('{\\node {\\sen a \\emph b}}'), ['1:16 misplaced-control']);
  assert.deepEqual(found('\\display {\\node}'), ['1:1 misplaced-control']);
  const e = only('{\\node \\sen Hello.}', 'misplaced-control');
  assert.equal(e.fix, 'write `{\\sen …}`');
});

test('an attribute given twice names where it was first given', () => {
  const meta = only('{\\node \\meta="a" \\meta="b"}', 'duplicate-attribute');
  assert.match(meta.message, /first at 1:8/);
  only('{\\section \\id="a" \\id="b"}', 'duplicate-attribute');
  only('{\\x \\k \\k}', 'duplicate-attribute');
});

test('a group without a name, and an unknown group inside a sentence', () => {
  assert.deepEqual(found('{\\node { loose } {\\sen a}}'), ['1:8 unnamed-group']);
  assert.deepEqual(found('{\\node {\\sen a {\\emph b} c}}'), ['1:16 misplaced-group']);
});

test('checkMarkup collects every error in source order; parseMarkup throws the first', () => {
  const text = '}\n{\\node \\meta {\\sen x \\y}}\n{\\sen z}\n{\\node';
  assert.deepEqual(found(text), [
    '1:1 stray-close',
    '2:8 needs-value',
    '2:22 misplaced-control',
    '3:1 misplaced-group',
    '4:1 unclosed-group',
  ]);
  assert.throws(() => parseMarkup(text), (e: unknown) => e instanceof MarkupError && e.code === 'stray-close');
});

test('well-formed text has no errors', () => {
  assert.deepEqual(found('{\\section \\id="a" {\\node \\meta="b" {\\sen c \\{ \\} \\\\ \\"}}}'), []);
});

test('groups nest 100 deep; the 101st is refused once, where it opens, however deep the file goes on', () => {
  const nested = (depth: number) => '{\\x '.repeat(depth) + '}'.repeat(depth);
  assert.deepEqual(found(nested(100)), []);
  assert.deepEqual(found(nested(101)), ['1:401 too-deep']);
  assert.deepEqual(found(nested(150)), ['1:401 too-deep']);
});

test('lines are counted across CRLF and lone CR line ends, and a quoted value ends at either', () => {
  for (const eol of ['\n', '\r\n', '\r']) {
    assert.deepEqual(found(`{\\node \\meta="a"${eol}{\\sen one}${eol}}${eol}  }`), ['4:3 stray-close'], JSON.stringify(eol));
    assert.deepEqual(found(`{\\node${eol}  \\meta="abc${eol}{\\sen x}}`), ['2:9 unterminated-value'], JSON.stringify(eol));
  }
});
