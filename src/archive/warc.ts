import { createReadStream, existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { basename } from 'node:path';
import { CDXIndexer, WARCRecord, WARCSerializer } from 'warcio';
import { appendWhole } from '../atomic-file.js';
import type { FetchedPage } from '../walk/fetch-step.js';

/**
 * The archive's WARC 1.1 file (ISO 28500): a warcinfo record, then a request and a response
 * record per fetched page, gzip per record so that the file can be appended to across runs and
 * read from any record's offset. Written and indexed with warcio, as replay tools expect.
 */

/** Headers that describe the transfer, not the body we store (it is kept decoded, whole). */
const TRANSFER_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length', 'connection', 'keep-alive']);

export class WarcWriter {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly software: string,
  ) {}

  /** Appends the page's request and response records; calls are written one after another in call order. */
  add(page: FetchedPage, at: Date): Promise<void> {
    const next = this.queue.then(() => this.write(page, at));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async write(page: FetchedPage, at: Date): Promise<void> {
    const chunks: Uint8Array[] = [];
    if (!existsSync(this.file)) {
      const info = WARCRecord.createWARCInfo(
        { filename: basename(this.file), warcVersion: 'WARC/1.1' },
        { software: this.software, format: 'WARC File Format 1.1', conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/' },
      );
      chunks.push(await WARCSerializer.serialize(info, { gzip: true }));
    }
    const date = at.toISOString();
    const url = page.finalUrl;
    const httpHeaders: [string, string][] = Object.entries(page.headers).filter(([k]) => !TRANSFER_HEADERS.has(k.toLowerCase()));
    httpHeaders.push(['content-length', String(page.body.length)]);
    const response = WARCRecord.create(
      { url, date, type: 'response', warcVersion: 'WARC/1.1', statusline: `HTTP/1.1 ${page.status} ${STATUS_CODES[page.status] ?? ''}`.trimEnd(), httpHeaders },
      [page.body],
    );
    const u = new URL(url);
    const request = WARCRecord.create(
      {
        url, date, type: 'request', warcVersion: 'WARC/1.1',
        statusline: `${page.method} ${u.pathname}${u.search} HTTP/1.1`,
        httpHeaders: [['host', u.host], ...Object.entries(page.requestHeaders)],
        warcHeaders: { 'WARC-Concurrent-To': response.warcHeader('WARC-Record-ID') ?? '' },
      },
      [],
    );
    chunks.push(await WARCSerializer.serialize(response, { gzip: true }));
    chunks.push(await WARCSerializer.serialize(request, { gzip: true }));
    // One write for the page's records, so a crash leaves whole records or none of this page's.
    appendWhole(this.file, Buffer.concat(chunks));
  }

  /** Resolves once every record asked for so far is on disk. */
  async flush(): Promise<void> {
    await this.queue;
  }
}

/** The CDXJ index of a WARC file (one line per response, sorted by SURT key), as pywb reads it. */
export async function cdxjOf(warcFile: string): Promise<string> {
  if (!existsSync(warcFile)) return '';
  const indexer = new CDXIndexer({ format: 'cdxj' });
  const lines: string[] = [];
  for await (const row of indexer.iterIndex([{ reader: createReadStream(warcFile), filename: basename(warcFile) }])) {
    lines.push(indexer.serialize(row).trimEnd());
  }
  return lines.length ? `${lines.sort().join('\n')}\n` : '';
}
