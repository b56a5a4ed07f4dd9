import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { constants, gzipSync } from 'node:zlib';

/**
 * One fetch at the largest byte cap (--max-bytes 256 MiB) holds the body and little else: its
 * memory stays within 1.5 times the cap, where chunks joined at the end and a text made of the
 * bytes held two to six times. Measured in a child process by the kernel's high-water mark of
 * resident memory (test/support/fetch-peak.ts), so no short peak is missed; memory, not time, so a
 * bound on it is no timed assertion.
 */

const MIB = 1024 * 1024;
const CAP = 256 * MIB;
const PEAK = resolve('dist', 'test', 'support', 'fetch-peak.js');
/** The high-water mark can be set back (Linux 4.0 on, where a process may write its own clear_refs). */
function resettablePeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
const LINUX = existsSync('/proc/self/status') && resettablePeak() ? false : 'needs a writable /proc/self/clear_refs (Linux) to read the peak of one fetch';

const line = '<p>The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the boats came in.</p>\n';
/** A page of `bytes` bytes; `first` opens it (a curly quote makes every character of its text two bytes). */
const page = (bytes: number, first = '') => {
  const head = Buffer.from(`<!DOCTYPE html><html><body><p>${first}</p>\n`);
  const body = Buffer.alloc(bytes, line);
  head.copy(body);
  return body;
};

let server: Server;
let port: number;

before(async () => {
  if (LINUX) return;
  const plain = page(CAP);
  const curly = page(CAP, '\u201cLight,\u201d she said.');
  const gzipped = gzipSync(plain, { level: constants.Z_BEST_SPEED });
  server = createServer((req, res) => {
    const [body, headers]: [Buffer, Record<string, string | number>] =
      req.url === '/small' ? [Buffer.from('<p>small</p>'), {}]
      : req.url === '/plain' ? [plain, { 'content-length': plain.length }]
      : req.url === '/gzip' ? [gzipped, { 'content-encoding': 'gzip' }]
      : [curly, {}];
    res.writeHead(200, { 'content-type': 'text/html', ...headers }).end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as { port: number }).port;
});
after(() => new Promise<void>((ok) => (server ? server.close(() => ok()) : ok())));

/** How far one fetch raised the memory of a fresh process, and what it got. */
function fetchPeak(path: string, text: boolean): Promise<{ kind: string; bytes: number; grew: number }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--expose-gc', PEAK, `http://mem.test:${port}${path}`, String(CAP), text ? 'text' : 'bytes']);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? ok(JSON.parse(out)) : fail(new Error(`fetch-peak exited ${code}: ${err}`))));
  });
}

describe('one fetch at a 256 MiB cap', { skip: LINUX }, () => {
  for (const [path, how] of [['/plain', 'with its length given'], ['/gzip', 'gzipped, its length unknown']] as const) {
    it(`holds at most 1.5 times the cap for a body ${how}`, async () => {
      const r = await fetchPeak(path, false);
      assert.equal(r.kind, 'ok');
      assert.equal(r.bytes, CAP);
      assert.ok(r.grew <= 1.5 * CAP, `the fetch grew the process by ${(r.grew / MIB).toFixed(0)} MiB`);
    });
  }

  it('decoded to text as the walker asks, holds the bytes and the text alone (two bytes a character past Latin-1)', async () => {
    const r = await fetchPeak('/curly', true);
    assert.equal(r.bytes, CAP);
    assert.ok(r.grew <= 1.5 * CAP + 2 * CAP, `the fetch grew the process by ${(r.grew / MIB).toFixed(0)} MiB`);
  });
});
