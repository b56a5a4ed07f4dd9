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

test('a file saved as UTF-16 is named so, with the conversion that fixes it, not taken for Latin-1', () => {
  for (const [bom, name, body] of [[[0xff, 0xfe], 'UTF-16LE', Buffer.from('{\\sen x}', 'utf16le')], [[0xfe, 0xff], 'UTF-16BE', Buffer.from('{\\sen x}', 'utf16le').swap16()]] as const) {
    assert.throws(() => decodeMarkup(Buffer.concat([Buffer.from(bom), body]), 'w.ane'), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.equal(err.toLine(), `w.ane:1:1: not UTF-8 text: the file is ${name} (it starts with the byte order mark 0x${bom[0].toString(16)} 0x${bom[1].toString(16)}); save the file as UTF-8 (iconv -f ${name} -t utf-8, or "UTF-8" in your editor's encoding menu)`);
      return true;
    });
  }
  // A byte not UTF-8 at the very start, with no UTF-16 mark, is found there too.
  assert.throws(() => decodeMarkup(bytes([0xe9], 'crit}'), 'l.ane'), (err: unknown) => err instanceof UserError && err.line === 1 && err.col === 1 && /byte 0xe9/.test(err.message));
});
