import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import seedrandom from 'seedrandom';
import { decodeText, decodeVisible, detectEncoding, type Encoding } from '../../src/html/decode.js';
import { parseBytes, parseDom } from '../../src/html/dom.js';
import { cutUnseen, cutUnseenBytes } from '../../src/html/unseen.js';
import { needsShared, sharedPath } from '../support/shared.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Scripts, styles and comments are cut from a page's bytes before they are decoded (unseen.ts):
 * the text must be what decoding everything and then cutting gives, whatever the bytes.
 */

const bytes = (...parts: (string | number[])[]) => Uint8Array.from(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p)))));
const enc = (charset: string): Encoding => ({ charset, source: 'http', bom: 0 });
const slow = (b: Uint8Array, e: Encoding) => cutUnseen(decodeText(b, e));

describe('cutting what no reader sees, before decoding', () => {
  it('cuts comments, scripts, styles, templates and declarations as bytes', () => {
    const page = bytes('<!DOCTYPE html><?xml x?><p>a</p><!-- <p>c</p> --><SCRIPT type="x">if (a < b) "</p>"</script ><style>p{}</style>é<template><p>t</p></template><p>b');
    assert.equal(Buffer.from(cutUnseenBytes(page, true)!).toString('utf8'), '<p>a</p>é<p>b');
  });

  it('runs an element left open, or a comment, to the end of the page', () => {
    assert.equal(Buffer.from(cutUnseenBytes(bytes('<p>a</p><script>x</scrip'), true)!).toString(), '<p>a</p>');
    assert.equal(Buffer.from(cutUnseenBytes(bytes('<p>a</p><!-- x -- >'), true)!).toString(), '<p>a</p>');
  });

  it('reads whitespace as the HTML tokenizer does: a no-break space does not end a tag name', () => {
    const page = '<p>a</p><script\u00A0x>b</script><p>c</p>';
    assert.equal(cutUnseen(page), page);
    assert.equal(decodeVisible(bytes(page), enc('UTF-8')), cutUnseen(page));
  });

  it('decodes first when a cut would join two halves of broken UTF-8 into one character', () => {
    // E2 before the comment and 82 AC after it: "€" if joined; three errors in the page as sent.
    const page = bytes([0xe2], '<!-- x -->', [0x82, 0xac]);
    assert.equal(cutUnseenBytes(page, true), undefined);
    assert.equal(decodeVisible(page, enc('UTF-8')), '\uFFFD\uFFFD\uFFFD');
    // A single-byte encoding has no sequences to join.
    assert.equal(decodeVisible(page, enc('windows-1252')), 'â‚¬');
  });

  it('gives the text of decoding then cutting on random soups of markup and bytes, in UTF-8, windows-1252 and Shift_JIS', () => {
    const random = seedrandom('unseen');
    const pieces: (string | number[])[] = ['<', '<', '>', '!--', '-->', '-', '!', '?', '/', ' ', '\t', '\u00A0', 'script', 'SCRIPT', 'style', 'Template', '</', 'a', 'x', 'é', '€', [0xe2], [0x82], [0xac], [0xf0, 0x9f], [0x80], [0xff], [0x93], [0xa0]];
    for (let n = 0; n < 20_000; n++) {
      const parts: (string | number[])[] = [];
      for (let i = Math.floor(random() * 24); i > 0; i--) parts.push(pieces[Math.floor(random() * pieces.length)]!);
      const page = bytes(...parts);
      for (const charset of ['UTF-8', 'windows-1252', 'Shift_JIS']) {
        assert.equal(decodeVisible(page, enc(charset)), slow(page, enc(charset)), `${charset} ${JSON.stringify(Buffer.from(page).toString('latin1'))}`);
      }
    }
  });

  it('cuts after a byte order mark and in a legacy encoding decoded first', () => {
    const page = bytes([0xef, 0xbb, 0xbf], '<p>a</p><script>b</script>');
    assert.equal(decodeVisible(page, detectEncoding(page)), '<p>a</p>');
    const sjis = Uint8Array.from(iconv.encode('<p>日本</p><!-- 語 --><p>語</p>', 'shift_jis'));
    assert.equal(decodeVisible(sjis, enc('Shift_JIS')), '<p>日本</p><p>語</p>');
  });

  it('parses the bytes to the tree parseDom makes of the decoded text', () => {
    const page = bytes('<meta charset="windows-1252"><p>caf', [0xe9], '</p><script>x</script><p>b</p>');
    assert.equal(parseBytes(page).toString(), parseDom(decodeText(page, detectEncoding(page))).toString());
    assert.equal(parseBytes(page).text, 'caféb');
  });

  const SHARED = needsShared('data/extraction', 'data/readability');
  it('gives the same text on every page of the two extraction sets', { skip: SHARED }, () => {
    let pages = 0;
    for (const set of ['extraction', 'readability']) {
      const dir = join(sharedPath('data', set), 'html');
      for (const f of readdirSync(dir)) {
        const raw = readFileSync(join(dir, f));
        const page = Uint8Array.from(f.endsWith('.gz') ? gunzipSync(raw) : raw);
        const e = detectEncoding(page);
        assert.equal(decodeVisible(page, e), slow(page, e), f);
        pages++;
      }
    }
    assert.ok(pages > 200, `${pages} pages`);
  });
});
