import assert from 'node:assert/strict';
import { resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { hostFolder, insideFolder, MirrorLayout, preferredPath, relativeHref, safeSegment } from '../../src/archive/layout.js';

/** Where the archiver puts each URL: inside the folder, apart from every other URL, readable where it can be. */

const ROOT = resolve('/tmp/anwc-archive-root');
const HOSTILE = [
  'http://h.test/../../etc/passwd',
  'http://h.test/%2e%2e/%2e%2e/etc/passwd',
  'http://h.test/..%2f..%2fetc%2fpasswd',
  'http://h.test/a/..%5c..%5cwin.ini',
  'http://h.test/%2fabs%2fpath',
  'http://h.test//etc/passwd',
  'http://h.test/%00nul/x',
  'http://h.test/CON',
  `http://h.test/${'x'.repeat(400)}.html`,
  `http://h.test/${'é'.repeat(300)}`,
  'http://h.test/q?a=../../b',
  'http://[::1]:8080/x',
];

describe('archive layout', () => {
  it('keeps every hostile URL inside the folder, in a name no file system refuses', () => {
    const layout = new MirrorLayout();
    for (const url of HOSTILE) {
      const path = layout.place(url, 'text/html');
      const full = insideFolder(ROOT, path);
      assert.ok(full.startsWith(ROOT + sep), `${url} → ${path}`);
      for (const seg of path.split('/')) {
        assert.ok(seg !== '' && seg !== '.' && seg !== '..', `${url} → ${path}: segment ${JSON.stringify(seg)}`);
        assert.ok(Buffer.byteLength(seg) <= 255, `${url}: segment of ${Buffer.byteLength(seg)} bytes`);
        assert.doesNotMatch(seg, /[\u0000-\u001f/\\<>:"|?*]/, `${url} → ${path}`);
      }
    }
  });

  it('refuses a path that would leave the folder, whatever made it', () => {
    assert.throws(() => insideFolder(ROOT, '../outside'), /leaves/);
    assert.throws(() => insideFolder(ROOT, 'a/../../outside'), /leaves/);
    assert.throws(() => insideFolder(ROOT, '/etc/passwd'.replace(/^\//, '../../../../../../etc/')), /leaves/);
  });

  it('mirrors the URI hierarchy: directory URLs become index files, types get the extension a browser needs', () => {
    assert.equal(preferredPath('http://h.test/docs/', 'text/html'), 'h.test/docs/index.html');
    assert.equal(preferredPath('http://h.test/', 'text/html; charset=utf-8'), 'h.test/index.html');
    assert.equal(preferredPath('http://h.test/a/page.html', 'text/html'), 'h.test/a/page.html');
    assert.equal(preferredPath('http://h.test/a/page.php', 'text/html'), 'h.test/a/page.php.html');
    assert.equal(preferredPath('http://h.test/c/ch1.xhtml', 'application/xhtml+xml'), 'h.test/c/ch1.xhtml');
    assert.equal(preferredPath('http://h.test/img/logo', 'image/png'), 'h.test/img/logo.png');
    assert.equal(preferredPath('http://h.test/s?q=1', 'text/html'), 'h.test/s@q=1.html');
    assert.equal(preferredPath('http://h.test/a%20b.html', 'text/html'), 'h.test/a b.html');
    assert.equal(hostFolder(new URL('http://H.test:8080/')), 'h.test@8080');
    assert.equal(hostFolder(new URL('http://[::1]:8080/')), '___1_@8080');
  });

  it('keeps names apart that differ only in case or Unicode form, and a file where a folder must go', () => {
    const layout = new MirrorLayout();
    const a = layout.place('http://h.test/Case.html', 'text/html');
    const b = layout.place('http://h.test/case.html', 'text/html');
    assert.notEqual(a.toLowerCase(), b.toLowerCase());
    const nfc = layout.place('http://h.test/caf%C3%A9.html', 'text/html');
    const nfd = layout.place('http://h.test/cafe%CC%81.html', 'text/html');
    assert.notEqual(nfc.normalize('NFC'), nfd.normalize('NFC'));
    const file = layout.place('http://h.test/thing', 'application/octet-stream');
    const under = layout.place('http://h.test/thing/inner.html', 'text/html');
    assert.ok(!under.toLowerCase().startsWith(`${file.toLowerCase()}/`), `${under} under the file ${file}`);
    assert.equal(layout.place('http://h.test/Case.html', 'text/html'), a, 'a URL keeps its file');
  });

  it('never gives a host folder the name of the archive\'s own files', () => {
    const layout = new MirrorLayout();
    for (const host of ['anwc.cdxj', 'anwc.warc.gz']) {
      const path = layout.place(`http://${host}/`, 'text/html');
      assert.notEqual(path.split('/')[0], host);
    }
  });

  it('keeps the placements of an earlier run', () => {
    const layout = new MirrorLayout([['http://h.test/x', 'h.test/x~old.html']]);
    assert.equal(layout.place('http://h.test/x', 'text/html'), 'h.test/x~old.html');
    assert.notEqual(layout.place('http://h.test/other', 'text/html'), 'h.test/x~old.html');
  });

  it('leads a directory URL and its index.html to one copy when only one of them was fetched', () => {
    const layout = new MirrorLayout();
    const root = layout.place('http://h.test/', 'text/html');
    const docs = layout.place('http://h.test/docs/index.html', 'text/html');
    assert.equal(layout.fileOf('http://h.test/index.html'), root);
    assert.equal(layout.fileOf('http://h.test/docs/'), docs);
    assert.equal(layout.fileOf('http://h.test/docs/index.html?x=1'), undefined, 'a query names another page');
    assert.equal(layout.fileOf('http://h.test/other/'), undefined);
    const png = layout.place('http://h.test/img/', 'image/png');
    assert.equal(layout.fileOf('http://h.test/img/index.html'), undefined, 'only an index.html copy stands for its directory');
    assert.notEqual(png, undefined);
  });

  it('makes a segment safe: dots defused, separators replaced, device names prefixed', () => {
    assert.equal(safeSegment('%2e%2e'), '_..');
    assert.equal(safeSegment('..%2f..'), '.._..');
    assert.equal(safeSegment(''), '_');
    assert.equal(safeSegment('nul.txt'), '_nul.txt');
    assert.equal(safeSegment('%2e'), '_.');
    for (const device of ['CON', 'aux.html', 'com1', 'LPT9.txt']) assert.equal(safeSegment(device), `_${device}`, device);
    for (const name of ['icon.png', 'console', 'comx', 'lpt', 'nul-x.txt']) assert.equal(safeSegment(name), name, name);
    assert.equal(safeSegment('bad%zzescape'), 'bad%zzescape');
  });

  it('keeps a name of 200 bytes whole; a longer one keeps its start and extension, apart by a hash of the whole', () => {
    const at = 'a'.repeat(195) + '.html';
    assert.equal(safeSegment(at), at);
    const over = 'a'.repeat(196) + '.html';
    const a = safeSegment(over);
    const b = safeSegment('a'.repeat(197) + '.html');
    assert.match(a, /^a+~[0-9a-f]{8}\.html$/);
    assert.ok(Buffer.byteLength(a) <= 200 && a !== b, `${a} / ${b}`);
    const wide = safeSegment('é'.repeat(150) + '.txt');
    assert.ok(Buffer.byteLength(wide) <= 200 && wide.endsWith('.txt') && wide.startsWith('é'.repeat(80)), wide);
  });

  it('writes hrefs between files as percent-encoded relative references', () => {
    assert.equal(relativeHref('h.test/a/b.html', 'h.test/c/d e.html'), '../c/d%20e.html');
    assert.equal(relativeHref('h.test/index.html', 'h.test/docs/index.html'), 'docs/index.html');
    assert.equal(relativeHref('h.test/a.html', 'h.test/s@q=1.html'), 's%40q%3D1.html');
  });
});
