import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../src/errors.js';
import {
  DEFAULT_STOP_WORDS,
  loadStopWords,
  parseStopWords,
  stopWordListNames,
  stopWordsDir,
} from '../../src/text/index.js';
import { sharedPath, needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('seeds/003_22b1c598545edb94.txt');

/** Appendix A read straight from the thesis: its table cells, without the table's headings. */
function thesisAppendixA(): Set<string> {
  const thesis = readFileSync(sharedPath('seeds', '003_22b1c598545edb94.txt'), 'utf8');
  const start = thesis.indexOf('\nAPPENDIX A.');
  const end = thesis.indexOf('\nAPPENDIX B', start);
  const headings = /^(Stop Word List|PRONOUNS FORMS|VERB FORMS|ARTICLES|prepositions, conjunctions|Common Eng)/;
  const cells = thesis
    .slice(start, end)
    .split('\n')
    .slice(2)
    .filter((line) => !headings.test(line))
    .flatMap((line) => line.split('\t'))
    .map((cell) => cell.trim())
    .filter((cell) => cell !== '');
  return new Set(cells.map((c) => (c === 'Ι' ? 'i' : c.toLowerCase())));
}

test('the default list is exactly the thesis Appendix A, lowercased, Greek iota read as "i"', { skip: SHARED }, () => {
  const expected = thesisAppendixA();
  assert.equal(expected.size, 158);
  assert.deepEqual([...DEFAULT_STOP_WORDS].sort(), [...expected].sort());
  assert.ok(DEFAULT_STOP_WORDS.has('i'));
  assert.ok(!DEFAULT_STOP_WORDS.has('ι'));
  for (const w of DEFAULT_STOP_WORDS) assert.equal(w, w.toLowerCase());
});

test('loadStopWords() is appendix-a, cached as one set', () => {
  assert.equal(loadStopWords(), DEFAULT_STOP_WORDS);
  assert.equal(loadStopWords('appendix-a'), DEFAULT_STOP_WORDS);
  assert.ok(stopWordListNames().includes('appendix-a'));
});

test('the shipped file starts with a comment naming its source', () => {
  const first = readFileSync(join(stopWordsDir(), 'appendix-a.txt'), 'utf8').split('\n')[0] ?? '';
  assert.match(first, /^# .*APPENDIX A/);
});

test('a custom list by path: comments, blank lines and case are handled', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-stop-'));
  const file = join(dir, 'mine.txt');
  writeFileSync(file, '\uFEFF# my list\r\nThe\r\n\r\n  Don’t  \r\n# end\r\nof\r\n');
  const set = loadStopWords(file);
  assert.deepEqual([...set].sort(), ["don't", 'of', 'the']);
  assert.equal(loadStopWords(file), set, 'read once, cached');
});

test('an unknown list name is a UserError that names the shipped lists', () => {
  assert.throws(
    () => loadStopWords('no-such-list'),
    (e: unknown) => e instanceof UserError && e.value === 'no-such-list' && /appendix-a/.test(e.fix ?? ''),
  );
  assert.throws(() => loadStopWords('/nonexistent/dir/words.txt'), UserError);
});

test('a line with two words is a UserError at file:line:col', () => {
  assert.throws(
    () => parseStopWords('# c\nthe\nof the\n', 'list.txt'),
    (e: unknown) =>
      e instanceof UserError && e.toLine() === 'list.txt:3:3: a stop-word list holds one word a line (got "of the"); put each word on its own line',
  );
});

test('a list without words is a UserError', () => {
  assert.throws(() => parseStopWords('# only a comment\n\n', 'empty.txt'), /has no words/);
});
