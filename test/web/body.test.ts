import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { firstRoom, readBody, WireError } from '../../src/web/body.js';

/** Where a body's bytes start: the room for them decides what a harvest of small pages holds. */

const CAPS = { maxWireBytes: 1 << 20, maxBytes: 1 << 20, maxRatio: 100 };
const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));

describe('a body\'s first room', () => {
  it('is the length the server gives, when no coding changes it', () => {
    assert.equal(firstRoom(false, '1234', 99), 1234);
    assert.equal(firstRoom(false, ' 20 ', undefined), 20);
  });

  it('is the first chunk\'s size for a body sent in chunks, and 64 kB before any chunk came', () => {
    assert.equal(firstRoom(false, undefined, 1400), 1400);
    assert.equal(firstRoom(false, 'lots', 1400), 1400);
    assert.equal(firstRoom(false, undefined, undefined), 64 * 1024);
  });

  it('is 64 kB for a coded body, whatever its length or first chunk', () => {
    assert.equal(firstRoom(true, '500', 500), 64 * 1024);
  });
});

describe('reading a body sent in chunks', () => {
  it('keeps every byte when a small first chunk is followed by larger ones', async () => {
    const parts = ['<p>', 'a'.repeat(5000), 'b'.repeat(70_000), '</p>'];
    const r = await readBody(chunks(...parts), undefined, CAPS);
    assert.ok(r.ok);
    assert.equal(Buffer.from(r.body).toString(), parts.join(''));
    assert.equal(r.truncated, false);
  });

  it('cuts at the cap, from a first room of the first chunk', async () => {
    const r = await readBody(chunks('x'.repeat(10), 'y'.repeat(100)), undefined, { ...CAPS, maxBytes: 50 });
    assert.ok(r.ok);
    assert.equal(Buffer.from(r.body).toString(), 'x'.repeat(10) + 'y'.repeat(40));
    assert.equal(r.truncated, true);
  });

  it('reads a gzipped body whole, its first chunk far smaller than what it decodes to', async () => {
    const text = 'The keeper lit the lamp. '.repeat(4000);
    const r = await readBody(Readable.from([gzipSync(text)]), 'gzip', CAPS);
    assert.ok(r.ok);
    assert.equal(Buffer.from(r.body).toString(), text);
  });
});

describe('reading a body sent as it is', () => {
  it('keeps a body of exactly the cap whole, and cuts one byte more', async () => {
    const whole = await readBody(chunks('x'.repeat(30), 'y'.repeat(20)), undefined, { ...CAPS, maxBytes: 50 });
    assert.ok(whole.ok);
    assert.deepEqual([whole.body.length, whole.truncated, whole.wireBytes], [50, false, 50]);
    const over = await readBody(chunks('x'.repeat(30), 'y'.repeat(21)), undefined, { ...CAPS, maxWireBytes: 50 });
    assert.ok(over.ok);
    assert.deepEqual([Buffer.from(over.body).toString(), over.truncated, over.wireBytes], ['x'.repeat(30) + 'y'.repeat(20), true, 50]);
  });

  it('gives an empty body as no bytes', async () => {
    const r = await readBody(Readable.from([]), undefined, CAPS, '0');
    assert.ok(r.ok);
    assert.deepEqual([r.body.length, r.truncated], [0, false]);
  });

  it('fails as the wire\'s fault when the body breaks off, with an error or without one', async () => {
    const broken = new Readable({ read() {} });
    broken.push(Buffer.from('<p>half'));
    setImmediate(() => broken.destroy(new Error('other side closed')));
    await assert.rejects(readBody(broken, undefined, CAPS), (e) => e instanceof WireError && /other side closed/.test(e.message));
    const closed = new Readable({ read() {} });
    closed.push(Buffer.from('<p>half'));
    setImmediate(() => closed.destroy());
    await assert.rejects(readBody(closed, undefined, CAPS), (e) => e instanceof WireError);
  });
});

describe('reading a coded body', () => {
  /** Words that do not repeat, so that their compressed size is near their own. */
  const unlike = (n: number) => Array.from({ length: n }, (_, i) => `w${(i * 2654435761) % 1000003}`).join(' ');
  const read = (bytes: Buffer, coding: string, caps = CAPS) => readBody(Readable.from([bytes]), coding, caps);
  const text = 'The keeper lit the lamp before the first boat came round the point. '.repeat(50);

  it('takes a coding named in any case, with spaces, as x-gzip, or after identity; identity alone is no coding', async () => {
    for (const coding of ['GZIP', ' x-gzip ', 'identity, gzip']) {
      const r = await read(gzipSync(text), coding);
      assert.ok(r.ok, coding);
      assert.equal(Buffer.from(r.body).toString(), text, coding);
    }
    const plain = await read(Buffer.from(text), 'identity');
    assert.ok(plain.ok);
    assert.equal(Buffer.from(plain.body).toString(), text);
  });

  it('undoes two codings from the last applied, and deflate sent zlib-wrapped or raw', async () => {
    const both = await read(brotliCompressSync(gzipSync(text)), 'gzip, br');
    assert.ok(both.ok);
    assert.equal(Buffer.from(both.body).toString(), text);
    for (const bytes of [deflateSync(text), deflateRawSync(text)]) {
      const r = await read(bytes, 'deflate');
      assert.ok(r.ok);
      assert.equal(Buffer.from(r.body).toString(), text);
    }
  });

  it('names a coding it does not know, and a body its coding cannot undo', async () => {
    assert.deepEqual(await read(Buffer.from(text), 'gzip, compress'), { ok: false, failure: 'decompression', detail: 'unknown Content-Encoding "compress"', wireBytes: 0, bytes: 0 });
    const bad = await read(Buffer.from('not gzip at all, only text'), 'gzip');
    assert.equal(bad.ok, false);
    assert.equal(!bad.ok && bad.failure, 'decompression');
  });

  it('keeps a body that decodes to exactly the cap whole, and cuts one that decodes to a byte more', async () => {
    const whole = await read(gzipSync(text), 'gzip', { ...CAPS, maxBytes: text.length });
    assert.ok(whole.ok);
    assert.deepEqual([whole.body.length, whole.truncated], [text.length, false]);
    const over = await read(gzipSync(text + '!'), 'gzip', { ...CAPS, maxBytes: text.length });
    assert.ok(over.ok);
    assert.deepEqual([Buffer.from(over.body).toString(), over.truncated], [text, true]);
  });

  it('stops taking a coded body from the wire at its cap and keeps what that much decodes to', async () => {
    const long = unlike(20_000);
    const zipped = gzipSync(long);
    const cap = Math.floor(zipped.length / 2);
    const r = await readBody(Readable.from([zipped.subarray(0, 1000), zipped.subarray(1000)]), 'gzip', { ...CAPS, maxWireBytes: cap });
    assert.ok(r.ok);
    assert.deepEqual([r.wireBytes, r.truncated], [cap, true]);
    const kept = Buffer.from(r.body).toString();
    assert.ok(kept.length > cap / 2 && long.startsWith(kept), `a start of the text, decoded from ${cap} bytes: ${kept.length} characters`);
  });

  it('fails as the wire\'s fault, not the coding\'s, when a coded body breaks off', async () => {
    const zipped = gzipSync(unlike(5000));
    const broken = new Readable({ read() {} });
    broken.push(zipped.subarray(0, 2000));
    setImmediate(() => broken.destroy(new Error('other side closed')));
    await assert.rejects(readBody(broken, 'gzip', CAPS), (e) => e instanceof WireError && /other side closed/.test(e.message));
  });
});
