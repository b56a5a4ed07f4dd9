import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { charsetParam, decodeHtml } from '../../src/html/decode.js';
import { encodingForLabel } from '../../src/html/labels.js';
import { prescanEncoding } from '../../src/html/prescan.js';

const latin1 = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));
const utf8 = (s: string) => Uint8Array.from(Buffer.from(s, 'utf8'));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));

test('a UTF-8 BOM outranks the HTTP charset and the meta, and is not part of the text', () => {
  const bytes = concat(Uint8Array.of(0xef, 0xbb, 0xbf), utf8('<meta charset="koi8-r"><p>café</p>'));
  const d = decodeHtml(bytes, 'text/html; charset=iso-8859-1');
  assert.deepEqual([d.charset, d.source], ['UTF-8', 'bom']);
  assert.equal(d.text, '<meta charset="koi8-r"><p>café</p>');
});

test('UTF-16 with a byte order mark, little- and big-endian', () => {
  const le = concat(Uint8Array.of(0xff, 0xfe), Uint8Array.from(Buffer.from('<p>naïve “quotes”</p>', 'utf16le')));
  assert.deepEqual(decodeHtml(le), { text: '<p>naïve “quotes”</p>', charset: 'UTF-16LE', source: 'bom' });
  const beBody = Buffer.from('<p>Ωmega</p>', 'utf16le').swap16();
  const be = concat(Uint8Array.of(0xfe, 0xff), Uint8Array.from(beBody));
  assert.deepEqual(decodeHtml(be), { text: '<p>Ωmega</p>', charset: 'UTF-16BE', source: 'bom' });
});

test('iso-8859-1 and ascii labels mean windows-1252, so 0x93/0x94 are curly quotes', () => {
  const bytes = latin1('<p>\x93Caf\xe9\x94 \x80 5</p>');
  for (const label of ['iso-8859-1', 'ISO_8859-1', 'latin1', 'us-ascii', 'windows-1252']) {
    const d = decodeHtml(bytes, `text/html; charset=${label}`);
    assert.deepEqual([d.charset, d.source], ['windows-1252', 'http'], label);
    assert.equal(d.text, '<p>“Café” € 5</p>', label);
  }
});

test('an HTTP charset outranks a meta that contradicts it, as in browsers', () => {
  const bytes = utf8('<meta charset="utf-8"><p>café</p>');
  const d = decodeHtml(bytes, 'text/html; charset=ISO-8859-1');
  assert.deepEqual([d.charset, d.source], ['windows-1252', 'http']);
  assert.equal(d.text, '<meta charset="utf-8"><p>cafÃ©</p>');
});

test('an unknown HTTP label is passed over and the meta decides', () => {
  const bytes = concat(latin1('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><p>'), Uint8Array.of(0xcf, 0xf0, 0xe8), latin1('</p>'));
  const d = decodeHtml(bytes, 'text/html; charset=klingon');
  assert.deepEqual([d.charset, d.source], ['windows-1251', 'meta']);
  assert.match(d.text, /<p>При<\/p>$/);
});

test('Shift_JIS by meta charset, and by its alias sjis over HTTP', () => {
  const body = Uint8Array.from(iconv.encode('<p>吾輩は猫である</p>', 'shift_jis'));
  const withMeta = concat(latin1('<html><head><meta charset=Shift_JIS></head>'), body);
  const d = decodeHtml(withMeta);
  assert.deepEqual([d.charset, d.source], ['Shift_JIS', 'meta']);
  assert.ok(d.text.endsWith('<p>吾輩は猫である</p>'));
  assert.equal(decodeHtml(body, 'text/html;charset="sjis"').text, '<p>吾輩は猫である</p>');
});

test('without labels, valid UTF-8 is sniffed as UTF-8 and anything else as windows-1252', () => {
  assert.deepEqual(decodeHtml(utf8('<p>Ünïcödé</p>')), { text: '<p>Ünïcödé</p>', charset: 'UTF-8', source: 'sniff' });
  assert.deepEqual(decodeHtml(latin1('<p>\xdcber</p>')), { text: '<p>Über</p>', charset: 'windows-1252', source: 'sniff' });
});

test('a UTF-8 sequence cut at the end by a byte cap still sniffs as UTF-8', () => {
  const cut = utf8('<p>ok €').subarray(0, -1);
  const d = decodeHtml(cut);
  assert.deepEqual([d.charset, d.source], ['UTF-8', 'sniff']);
  assert.equal(d.text, '<p>ok \uFFFD');
});

test('a cut sequence that no UTF-8 begins with, or continuation bytes with no start, sniff as windows-1252', () => {
  // E0 must be followed by A0–BF: E0 80 is wrong before the cap cut anything.
  const wrongStart = new Uint8Array([...utf8('<p>ok '), 0xe0, 0x80]);
  assert.deepEqual([decodeHtml(wrongStart).charset, decodeHtml(wrongStart).source], ['windows-1252', 'sniff']);
  const noStart = new Uint8Array([...utf8('<p>ok '), 0x80, 0x80]);
  assert.equal(decodeHtml(noStart).charset, 'windows-1252');
});

test('pure ASCII gives no evidence, so the default is recorded', () => {
  assert.deepEqual(decodeHtml(utf8('<p>plain</p>'), 'text/html'), { text: '<p>plain</p>', charset: 'UTF-8', source: 'default' });
  assert.deepEqual(decodeHtml(new Uint8Array()), { text: '', charset: 'UTF-8', source: 'default' });
});

test('a meta that claims UTF-16 is read as UTF-8, since its own bytes were ASCII', () => {
  const d = decodeHtml(utf8('<meta charset="utf-16"><p>é</p>'));
  assert.deepEqual([d.charset, d.source, d.text.endsWith('<p>é</p>')], ['UTF-8', 'meta', true]);
});

test('labels the standard maps to "replacement" decode to one U+FFFD', () => {
  assert.deepEqual(decodeHtml(latin1('<p>x</p>'), 'text/html; charset=iso-2022-kr'), { text: '\uFFFD', charset: 'replacement', source: 'http' });
});

test('prescan: metas in comments, in other attributes, or past 1024 bytes do not count', () => {
  assert.equal(prescanEncoding(latin1('<!-- <meta charset="koi8-r"> --><meta charset="iso-8859-2">')), 'ISO-8859-2');
  assert.equal(prescanEncoding(latin1('<!--><meta charset="koi8-r">')), 'KOI8-R');
  assert.equal(prescanEncoding(latin1('<div title="<meta charset=koi8-r>"></div>')), undefined);
  assert.equal(prescanEncoding(latin1(' '.repeat(1020) + '<meta charset="koi8-r">')), undefined);
});

test('prescan: http-equiv needs content-type, content needs charset=, the first charset attribute wins', () => {
  assert.equal(prescanEncoding(latin1('<meta content="text/html; charset=koi8-r">')), undefined);
  assert.equal(prescanEncoding(latin1('<META HTTP-EQUIV=Content-Type CONTENT="text/html;charset=\'EUC-JP\'">')), 'EUC-JP');
  assert.equal(prescanEncoding(latin1('<meta charset="koi8-r" charset="utf-8">')), 'KOI8-R');
  assert.equal(prescanEncoding(latin1('<meta charset="nonsense"><meta charset=gbk>')), 'GBK');
  assert.equal(prescanEncoding(latin1('<meta/charset=big5>')), 'Big5');
});

test('the label table normalises case, whitespace and aliases', () => {
  assert.equal(encodingForLabel('  UTF8 '), 'UTF-8');
  assert.equal(encodingForLabel('ks_c_5601-1987'), 'EUC-KR');
  assert.equal(encodingForLabel('x-sjis'), 'Shift_JIS');
  assert.equal(encodingForLabel('utf-7'), undefined);
});

test('charsetParam reads quoted and unquoted parameters, first one wins', () => {
  assert.equal(charsetParam('text/html; charset=utf-8'), 'utf-8');
  assert.equal(charsetParam('text/html;a="x;charset=no"; charset="koi8-r"; charset=utf-8'), 'koi8-r');
  assert.equal(charsetParam('text/html'), undefined);
  assert.equal(charsetParam('text/html; charset='), undefined);
});

test('a meta charset that the bytes contradict (they are UTF-8 beyond ASCII) is an old template\'s: UTF-8 is read', () => {
  const moved = decodeHtml(utf8('<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>灯塔的看守人在黄昏时爬上了塔楼。</p>'));
  assert.deepEqual([moved.charset, moved.source, moved.text.includes('灯塔的看守人')], ['UTF-8', 'sniff', true]);
  const latin = decodeHtml(utf8('<meta charset="iso-8859-1"><p>café au phare</p>'));
  assert.deepEqual([latin.charset, latin.text.includes('café')], ['UTF-8', true]);
  // Bytes that are not UTF-8 are read as the meta says.
  const gbk = decodeHtml(concat(latin1('<meta charset="gbk"><p>'), Uint8Array.of(0xb5, 0xc6, 0xcb, 0xfe), latin1('</p>')));
  assert.deepEqual([gbk.charset, gbk.source, gbk.text.includes('灯塔')], ['GBK', 'meta', true]);
});

test('a legacy page that merely starts with the bytes of a byte order mark is read as labelled', () => {
  // Þ and ÿ in windows-1252 are 0xFE and 0xFF; "AB¿" ends in the last byte of UTF-8's mark.
  for (const [text, start] of [['þing', 'þ'], ['ÿes', 'ÿ'], ['AB¿', 'A'], ['ï»x', 'ï'], ['ïx¿', 'ï']] as const) {
    const d = decodeHtml(latin1(text), 'text/html; charset=windows-1252');
    assert.deepEqual([d.text, d.source], [text, 'http'], `${text} starts with ${start}`);
  }
});

test('x-user-defined maps the bytes past ASCII into the private use area, as the standard says', () => {
  const d = decodeHtml(Uint8Array.of(0x41, 0x80, 0xff), 'text/html; charset=x-user-defined');
  assert.deepEqual([d.text, d.charset], ['A\uf780\uf7ff', 'x-user-defined']);
});

test('GBK is read with the gb18030 decoder, whose four-byte sequences a plain GBK codec would break', () => {
  const d = decodeHtml(Uint8Array.of(0x81, 0x30, 0x81, 0x30, 0xc4, 0xe3), 'text/html; charset=gbk');
  assert.deepEqual([d.text, d.charset], ['\u0080你', 'GBK']);
});

test('charsetParam undoes backslash escapes in a quoted value, and passes over a parameter with no value', () => {
  assert.equal(charsetParam('text/html; charset="utf\\-8"'), 'utf-8');
  assert.equal(charsetParam('text/html; flag; Charset = latin1 ;x=1'), 'latin1');
  assert.equal(charsetParam('text/html;charset="koi8-r" trailing; charset=utf-8'), 'koi8-r');
});

test('prescan follows the standard\'s steps: quoting, case, spaces, pragmas, comments, other tags\' attributes, end tags, the first of a name', () => {
  const cases: [string, string | undefined][] = [
    ['<meta charset=koi8-r>', 'KOI8-R'],
    ["<meta charset='koi8-r'>", 'KOI8-R'],
    ['<META CHARSET="KOI8-R">', 'KOI8-R'],
    ['<meta/charset=koi8-r>', 'KOI8-R'],
    ['<metax charset=koi8-r>', undefined],
    ['<meta charset = koi8-r >', 'KOI8-R'],
    ['<meta charset koi8-r>', undefined],
    ['<meta http-equiv="Content-Type" content="text/html; charset=KOI8-R">', 'KOI8-R'],
    ['<meta content="text/html; charset=koi8-r">', undefined],
    ['<meta content="text/html; charset=koi8-r" http-equiv=content-type>', 'KOI8-R'],
    ['<meta http-equiv="refresh" content="0; charset=koi8-r">', undefined],
    ['<meta charset="utf-16le">', 'UTF-8'],
    ['<meta charset="UTF-16BE">', 'UTF-8'],
    ['<meta charset="x-user-defined">', 'windows-1252'],
    ['<meta charset="bogus"><meta charset="koi8-r">', 'KOI8-R'],
    [`<meta http-equiv=content-type content='text/html; charset="koi8-r"'>`, 'KOI8-R'],
    [`<meta http-equiv=content-type content='text/html; charset="koi8-r'>`, undefined],
    ['<meta http-equiv=content-type content="charset koi8-r; charset=iso-8859-2">', 'ISO-8859-2'],
    ['<meta http-equiv=content-type content="text/html; CHARSET =  koi8-r ;x">', 'KOI8-R'],
    ['<meta http-equiv=content-type content="text/html; charset=">', undefined],
    ['<meta http-equiv=content-type content="text/html">', undefined],
    ['<!-- <meta charset=koi8-r> --><meta charset=iso-8859-2>', 'ISO-8859-2'],
    ['<!--><meta charset=koi8-r>', 'KOI8-R'],
    ['<!---><meta charset=koi8-r>', 'KOI8-R'],
    ['<a title="<meta charset=koi8-r>"><meta charset=iso-8859-2>', 'ISO-8859-2'],
    ['<img alt=">" ><meta charset=koi8-r>', 'KOI8-R'],
    ["</p title='>'><meta charset=koi8-r>", 'KOI8-R'],
    ["</p title='<meta charset=koi8-r>'><meta charset=iso-8859-2>", 'ISO-8859-2'],
    ['<!doctype html><meta charset=koi8-r>', 'KOI8-R'],
    ['<?xml version="1.0"?><meta charset=koi8-r>', 'KOI8-R'],
    ['<! <meta charset=koi8-r> ><meta charset=iso-8859-2>', 'ISO-8859-2'],
    ["</p title='>' <meta charset=koi8-r>", undefined],
    ['</3 <meta charset=koi8-r> ><meta charset=iso-8859-2>', 'ISO-8859-2'],
    ['<meta charset=koi8-r content="charset=iso-8859-2" http-equiv=content-type>', 'KOI8-R'],
    ['<meta charset=bogus charset=koi8-r>', undefined],
    ['<meta http-equiv=content-type http-equiv=refresh content="charset=koi8-r">', 'KOI8-R'],
    ['<meta content="charset=koi8-r" content="x" charset=iso-8859-2 http-equiv=content-type>', 'ISO-8859-2'],
    // An unquoted value runs to a space or `>`: the slash is the label's, which no encoding has.
    ['<meta charset=koi8-r/>', undefined],
    ['<p>no meta here</p>', undefined],
    ['< meta charset=koi8-r>', undefined],
    ['<meta\tcharset=koi8-r>', 'KOI8-R'],
    ['<meta\ncharset="koi8-r">', 'KOI8-R'],
    ['<body><p>x</p><meta charset=koi8-r>', 'KOI8-R'],
    ['<a href=x><meta charset=koi8-r>', 'KOI8-R'],
    ['<br/><meta charset=koi8-r>', 'KOI8-R'],
  ];
  for (const [html, want] of cases) assert.equal(prescanEncoding(latin1(html)), want, html);
});
