import { readFileSync, writeFileSync } from 'node:fs';
import { Fetcher } from '../../src/web/fetcher.js';

/**
 * Run in a child process (`node --expose-gc dist/test/support/fetch-peak.js URL MAX_BYTES [text]`):
 * one fetch of URL under a byte cap of MAX_BYTES, as `anwc fetch` makes it (with `text`, decoded to
 * text as the walker asks), and how far the process's resident memory rose above what it held
 * before. Linux keeps the high-water mark (VmHWM), and writing 5 to clear_refs sets it back to the
 * present, so every peak of the fetch is seen, however short. Prints one JSON line.
 */

const [url, max, text] = process.argv.slice(2) as [string, string, string?];
const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

const host = new URL(url).hostname;
const fetcher = new Fetcher({ resolve: [`${host}:127.0.0.1`], maxBytes: Number(max), timeoutMs: 120_000 });
try {
  // The connection, the parser and the decoders in place first: their memory is not the body's.
  await fetcher.fetch(new URL('/small', url).href, { decode: text === 'text' });
  (globalThis as { gc?: () => void }).gc?.();
  const before = kib('VmRSS');
  writeFileSync('/proc/self/clear_refs', '5');
  const o = await fetcher.fetch(url, { decode: text === 'text' });
  const peak = kib('VmHWM');
  process.stdout.write(`${JSON.stringify({ kind: o.kind, bytes: o.kind === 'ok' ? o.bytes : 0, grew: peak - before })}\n`);
} finally {
  await fetcher.close();
}
