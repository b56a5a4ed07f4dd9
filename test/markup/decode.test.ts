import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UserError } from '../../src/errors.js';
import { decodeMarkup } from '../../src/markup/decode.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

test('UTF-8 markup decodes as written: a BOM kept for the lexer, U+FFFD written in the file is text', () => {
  assert.equal(decodeMarkup(bytes('{\\sen Café \ufffd}'), 'a.ane'), '{\\sen Café \ufffd}');
  assert.equal(decodeMarkup(bytes([0xef, 0xbb, 0xbf], '{\\sen x}'), 'a.ane'), '\ufeff{\\sen x}');
});

test('the first byte that is not UTF-8 is refused at its line and column, after a BOM and a written U+FFFD', () => {
  const cases: [Buffer, number, number, string][] = [
    [bytes('{\\sen a}\n{\\sen Hello ', [0xff, 0xfe], ' there.}'), 2, 13, '0xff'],
    [bytes([0xef, 0xbb, 0xbf], 'Café \ufffd ', [0xe9], 't'), 1, 9, '0xe9'],
    [bytes('ab', [0xc3]), 1, 3, '0xc3'],
  ];
  for (const [input, line, col, byte] of cases) {
    assert.throws(() => decodeMarkup(input, 'b.ane'), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.deepEqual([err.file, err.line, err.col], ['b.ane', line, col]);
      assert.match(err.toLine(), new RegExp(`^b\\.ane:${line}:${col}: not UTF-8 text: byte ${byte} is not a UTF-8 character; save the file as UTF-8`));
      return true;
    });
  }
});
