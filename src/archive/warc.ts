import { createReadStream, existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { basename } from 'node:path';
import { CDXIndexer, WARCRecord, WARCSerializer } from 'warcio';
import { appendWhole } from '../atomic-file.js';

/**
 * The archive's WARC 1.1 file (ISO 28500): a warcinfo record, then for every answer of the run a
 * response record (2xx, redirects, error statuses, as wget and Heritrix keep them) or, for a 304
 * to a conditional GET, a revisit record of the earlier capture, each followed by its request
 * record; gzip per record so that the file can be appended to across runs and read from any
 * record's offset. Written and indexed with warcio, as replay tools expect.
 */

/** The revisit profile of a 304 (WARC 1.1, section 6.7.3): the server said the earlier capture still holds. */
export const SERVER_NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/** Headers that describe the transfer, not the body we store (it is kept decoded, whole). */
const TRANSFER_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length', 'connection', 'keep-alive']);

/** One exchange as the WARC keeps it: a request to `url` and the answer to it. */
export interface Capture {
  url: string;
  method: 'GET' | 'HEAD';
  status: number;
  headers: Record<string, string>;
  requestHeaders: Record<string, string>;
  /** After content decoding, within the byte cap. */
  body: Uint8Array;
  truncated: boolean;
}

/** The capture a revisit repeats: its target URI and WARC-Date. */
export interface EarlierCapture {
  uri: string;
  date: string;
}

export class WarcWriter {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly software: string,
  ) {}

  /** Appends a response record and its request; calls are written one after another in call order. */
  add(capture: Capture, at: Date): Promise<void> {
    return this.enqueue(capture, at);
  }

  /** Appends a revisit record for a 304 (the answer's headers, no body) and its request. */
  revisit(capture: Capture, earlier: EarlierCapture | undefined, at: Date): Promise<void> {
    return this.enqueue(capture, at, earlier ?? null);
  }

  /** `earlier` is null for a revisit of an unknown capture, undefined for a response. */
  private enqueue(capture: Capture, at: Date, earlier?: EarlierCapture | null): Promise<void> {
    const next = this.queue.then(() => this.write(capture, at, earlier));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async write(c: Capture, at: Date, earlier: EarlierCapture | null | undefined): Promise<void> {
    const chunks: Uint8Array[] = [];
    if (!existsSync(this.file)) {
      const info = WARCRecord.createWARCInfo(
        { filename: basename(this.file), warcVersion: 'WARC/1.1' },
        { software: this.software, format: 'WARC File Format 1.1', conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/' },
      );
      chunks.push(await WARCSerializer.serialize(info, { gzip: true }));
    }
    const date = at.toISOString();
    const url = c.url;
    const httpHeaders: [string, string][] = Object.entries(c.headers).filter(([k]) => !TRANSFER_HEADERS.has(k.toLowerCase()));
    const revisit = earlier !== undefined;
    if (!revisit) httpHeaders.push(['content-length', String(c.body.length)]);
    const answer = WARCRecord.create(
      {
        url, date, type: revisit ? 'revisit' : 'response', warcVersion: 'WARC/1.1',
        statusline: `HTTP/1.1 ${c.status} ${STATUS_CODES[c.status] ?? ''}`.trimEnd(), httpHeaders,
        ...(earlier ? { refersToUrl: earlier.uri, refersToDate: earlier.date } : {}),
        // A body cut at the byte cap is said to be cut (WARC 1.1, section 5.13).
        ...(c.truncated && !revisit ? { warcHeaders: { 'WARC-Truncated': 'length' } } : {}),
      },
      revisit ? [] : [c.body],
    );
    // warcio names the identical-payload-digest profile for every revisit; a 304 is the other one.
    if (revisit) answer.warcHeaders.headers.set('WARC-Profile', SERVER_NOT_MODIFIED);
    const u = new URL(url);
    const request = WARCRecord.create(
      {
        url, date, type: 'request', warcVersion: 'WARC/1.1',
        statusline: `${c.method} ${u.pathname}${u.search} HTTP/1.1`,
        httpHeaders: [['host', u.host], ...Object.entries(c.requestHeaders)],
        warcHeaders: { 'WARC-Concurrent-To': answer.warcHeader('WARC-Record-ID') ?? '' },
      },
      [],
    );
    chunks.push(await WARCSerializer.serialize(answer, { gzip: true }));
    chunks.push(await WARCSerializer.serialize(request, { gzip: true }));
    // One write for the exchange's records, so a crash leaves whole records or none of them.
    appendWhole(this.file, Buffer.concat(chunks));
  }

  /** Resolves once every record asked for so far is on disk. */
  async flush(): Promise<void> {
    await this.queue;
  }
}

/** The CDXJ index of a WARC file (one line per response or revisit, sorted by SURT key), as pywb reads it. */
export async function cdxjOf(warcFile: string): Promise<string> {
  if (!existsSync(warcFile)) return '';
  const indexer = new CDXIndexer({ format: 'cdxj' });
  const lines: string[] = [];
  for await (const row of indexer.iterIndex([{ reader: createReadStream(warcFile), filename: basename(warcFile) }])) {
    lines.push(indexer.serialize(row).trimEnd());
  }
  return lines.length ? `${lines.sort().join('\n')}\n` : '';
}
