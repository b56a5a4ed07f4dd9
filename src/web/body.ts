import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

/**
 * Reads a response body under two caps: bytes over the wire and bytes after content decoding.
 * undici's request() leaves Content-Encoding alone, so decoding happens here, streaming with
 * backpressure, and stops pulling the moment a cap is reached: a compression bomb is never
 * inflated past the cap.
 */

export interface BodyCaps {
  /** Bytes taken from the wire; the rest is cut (`truncated`). */
  maxWireBytes: number;
  /** Bytes kept after decoding; the rest is cut too. */
  maxBytes: number;
  /**
   * Decoded:wire ratio past which reaching `maxBytes` means a bomb rather than a long page.
   * HTML compresses 3–10:1; a bomb reaches 1000:1.
   */
  maxRatio: number;
}

export type BodyResult =
  | { ok: true; body: Uint8Array; wireBytes: number; truncated: boolean }
  | { ok: false; failure: 'decompression' | 'too-large'; detail: string; wireBytes: number; bytes: number };

type Coding = 'gzip' | 'deflate' | 'br';

/** The codings to undo, in the order to undo them; a string naming the first unknown one. */
export function codingsOf(contentEncoding: string | undefined): Coding[] | string {
  const listed = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  const out: Coding[] = [];
  // Listed in the order applied, so undone from the end.
  for (const c of listed.reverse()) {
    if (c === 'gzip' || c === 'x-gzip') out.push('gzip');
    else if (c === 'deflate' || c === 'br') out.push(c);
    else return c;
  }
  return out;
}

/** Partial input (a body cut at the cap) flushes what it has instead of failing. */
function decoder(coding: Coding, firstByte: number | undefined): Transform {
  if (coding === 'gzip') return createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
  if (coding === 'br') return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
  // "deflate" means zlib-wrapped (RFC 9110 8.4.1.2), but some servers send it raw; a zlib
  // stream's first byte has 8 (deflate) in its low nibble.
  const wrapped = firstByte === undefined || (firstByte & 0x0f) === 8;
  return wrapped
    ? createInflate({ finishFlush: constants.Z_SYNC_FLUSH })
    : createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH });
}

/** Marks errors of the connection, so they are told apart from errors of the decoders. */
export class WireError extends Error {
  constructor(readonly original: unknown) {
    super((original as Error)?.message ?? String(original));
  }
}

/**
 * Reads `body` to the end or to a cap. Transport errors (reset, abort) are thrown as WireError
 * for the fetcher to classify; decoding trouble comes back as a failure value.
 */
export async function readBody(body: Readable, contentEncoding: string | undefined, caps: BodyCaps, contentLength?: string): Promise<BodyResult> {
  // Destroying the body early (at a cap) makes undici emit an abort error nobody needs to hear.
  body.on('error', ignore);
  const codings = codingsOf(contentEncoding);
  if (typeof codings === 'string') {
    body.destroy();
    return { ok: false, failure: 'decompression', detail: `unknown Content-Encoding "${codings}"`, wireBytes: 0, bytes: 0 };
  }
  if (codings.length === 0) return readPlain(body, Math.min(caps.maxWireBytes, caps.maxBytes), contentLength);
  let wire = 0;
  let wireCut = false;
  let firstByte: number | undefined;
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let first: IteratorResult<Buffer>;
  try {
    first = await iterator.next();
  } catch (err) {
    throw new WireError(err);
  }
  if (!first.done) firstByte = first.value[0];

  async function* fromWire(): AsyncGenerator<Buffer> {
    let step = first;
    while (!step.done) {
      const chunk = step.value;
      const room = caps.maxWireBytes - wire;
      if (chunk.length > room) {
        wireCut = true;
        wire += room;
        if (room > 0) yield chunk.subarray(0, room);
        return;
      }
      wire += chunk.length;
      yield chunk;
      try {
        step = await iterator.next();
      } catch (err) {
        throw new WireError(err);
      }
    }
  }

  const kept = new Gathered(caps.maxBytes, firstRoom(true, contentLength, first.done ? undefined : first.value.length));
  let decodedCut = false;
  async function take(source: AsyncIterable<Buffer>): Promise<void> {
    for await (const chunk of source) {
      const room = caps.maxBytes - kept.size;
      if (chunk.length > room) {
        decodedCut = true;
        if (room > 0) kept.add(chunk.subarray(0, room));
        return;
      }
      kept.add(chunk);
    }
  }

  const stages = codings.map((c, i) => decoder(c, i === 0 ? firstByte : undefined));
  try {
    await (pipeline as (...s: unknown[]) => Promise<void>)(fromWire, ...stages, take);
  } catch (err) {
    if (err instanceof WireError) throw err;
    // Leaving early at a cap aborts the pipeline; that is the cap working, not a failure.
    if (!decodedCut && !wireCut) {
      return { ok: false, failure: 'decompression', detail: (err as Error).message, wireBytes: wire, bytes: kept.size };
    }
  } finally {
    body.destroy();
  }
  // Bytes the first decoder actually consumed, not the larger amount already pulled off the wire.
  const consumed = (stages[0] as { bytesWritten?: number }).bytesWritten ?? wire;
  const size = kept.size;
  if (decodedCut && size / Math.max(consumed, 1) > caps.maxRatio) {
    return {
      ok: false,
      failure: 'too-large',
      detail: `decoded body reached the ${caps.maxBytes}-byte cap from ${consumed} compressed bytes (over ${caps.maxRatio}:1, a compression bomb)`,
      wireBytes: wire,
      bytes: size,
    };
  }
  return { ok: true, body: kept.bytes(), wireBytes: wire, truncated: wireCut || decodedCut };
}

/**
 * A body with no coding, read from its 'data' events up to `max` bytes: what the wire gives is what
 * is kept, so one cap is both. An async iterator and the generator over it cost a harvest's main
 * thread some promises and turns a chunk. bench fetch, 10,000 corpus pages, three interleaved pairs
 * (2026-12-07): the Fetcher's CPU a page 1.63–1.72 → 1.20–1.37 times plain undici's; bench crawl
 * against the build before it (BENCH_CRAWL_BASE, 4 rounds): 1.02× (0.98–1.06) its pages/s, 0.020 ms
 * (0.000–0.062) less CPU a page.
 */
function readPlain(body: Readable, max: number, contentLength: string | undefined): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    let kept: Gathered | undefined;
    const done = (truncated: boolean) => {
      body.off('data', data);
      body.off('end', end);
      body.off('close', closed);
      body.destroy();
      kept ??= new Gathered(max, 0);
      resolve({ ok: true, body: kept.bytes(), wireBytes: kept.size, truncated });
    };
    const data = (chunk: Buffer) => {
      kept ??= new Gathered(max, firstRoom(false, contentLength, chunk.length));
      const room = max - kept.size;
      if (chunk.length <= room) return kept.add(chunk);
      if (room > 0) kept.add(chunk.subarray(0, room));
      done(true);
    };
    const end = () => done(false);
    // A connection that breaks ends the body with an error, or closes it before its end.
    const closed = () => reject(new WireError(new Error('the connection closed before the body ended')));
    body.once('error', (err) => {
      body.off('close', closed);
      reject(new WireError(err));
    });
    body.on('data', data);
    body.once('end', end);
    body.once('close', closed);
  });
}

const FIRST_BYTES = 64 * 1024;

/**
 * The room a body's bytes start in: its length, when the server gives it and no coding changes
 * it; else that of its first chunk, when it came as is. A page sent in chunks (no length) most
 * often comes in one: room for 64 kB for each such page of 1.4 kB held a harvest of the crawl
 * bench's web at 196 MB of peak RSS where its own size holds it at 163 (four interleaved rounds
 * each). A coded body's first chunk says little of its decoded size: it starts at 64 kB.
 */
export function firstRoom(coded: boolean, contentLength: string | undefined, firstChunk: number | undefined): number {
  if (coded) return FIRST_BYTES;
  if (contentLength !== undefined && /^\d+$/.test(contentLength.trim())) return Number(contentLength);
  return firstChunk ?? FIRST_BYTES;
}

/**
 * The body's bytes gathered in one buffer, never more than 1.25 times the cap at once: sized from
 * the start (firstRoom), then grown by doubling up to a quarter of the cap, then to the cap.
 * Chunks kept in a list and joined at the end held twice the body at the join.
 */
class Gathered {
  size = 0;
  private buf: Uint8Array;

  constructor(private readonly cap: number, room: number) {
    this.buf = new Uint8Array(Math.min(cap, room));
  }

  add(chunk: Uint8Array): void {
    const need = this.size + chunk.length;
    if (need > this.buf.length) {
      let next = this.buf.length * 2 <= this.cap / 4 ? this.buf.length * 2 : this.cap;
      next = Math.min(this.cap, Math.max(next, need));
      const grown = new Uint8Array(next);
      grown.set(this.buf.subarray(0, this.size));
      this.buf = grown;
    }
    this.buf.set(chunk, this.size);
    this.size = need;
  }

  /** The bytes, in a buffer of their own size when the one gathered is over twice too big (a server that promised more). */
  bytes(): Uint8Array {
    if (this.size === this.buf.length) return this.buf;
    return this.size <= this.buf.length / 2 ? this.buf.slice(0, this.size) : this.buf.subarray(0, this.size);
  }
}

function ignore(): void {}
