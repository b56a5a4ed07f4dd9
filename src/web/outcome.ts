/**
 * The one record every fetch ends in (practice 3). Callers switch on `kind`; the walker stores
 * it, `anwc why` explains it, the politeness slot learns from it. Network trouble is a value
 * here, never an exception.
 */

export type FailureKind =
  | 'timeout'
  | 'too-large'
  | 'refused-address'
  | 'dns'
  | 'robots'
  | 'scope'
  | 'tls'
  | 'reset'
  | 'refused'
  | 'redirect-loop'
  | 'too-many-redirects'
  | 'bad-content-type'
  | 'bad-url'
  | 'decompression'
  /** A transport error none of the kinds above names; `detail` carries its code. */
  | 'network';

export interface Hop {
  url: string;
  status: number;
}

export interface Timing {
  /** Wall clock (ms since the epoch) when the fetch began. */
  startMs: number;
  /** Milliseconds from start until the last response's headers arrived (redirects included). */
  headersMs?: number;
  totalMs: number;
}

interface Common {
  method: 'GET' | 'HEAD';
  /** The URL asked for, normalized. */
  url: string;
  /** The URL of the last request sent (differs from `url` after redirects). */
  finalUrl: string;
  /** Each hop that answered with a redirect, in order. */
  redirects: Hop[];
  timing: Timing;
}

/** Response headers, names lower case, repeated fields joined with ", ". */
export type Headers = Record<string, string>;

export interface FetchOk extends Common {
  kind: 'ok';
  status: number;
  headers: Headers;
  contentType: string | null;
  /** Decoded body: absent for HEAD and when decoding was not asked for. */
  text?: string;
  charset?: string;
  charsetSource?: 'bom' | 'http' | 'meta' | 'sniff' | 'default';
  /** The body after content decoding (gzip…), at most the byte cap. */
  body: Uint8Array;
  /** Length of `body`. */
  bytes: number;
  /** Bytes that came over the wire (before content decoding). */
  wireBytes: number;
  /** The body was cut at a cap; what there is can still be used. */
  truncated: boolean;
  /** The headers of the request that got this answer, as sent (an archive records them). */
  requestHeaders: Headers;
}

export interface FetchNotModified extends Common {
  kind: 'not-modified';
  status: 304;
  headers: Headers;
}

export interface FetchHttpError extends Common {
  kind: 'http-error';
  status: number;
  headers: Headers;
  contentType: string | null;
}

export interface FetchFailed extends Common {
  kind: 'failed';
  failure: FailureKind;
  detail: string;
  /** Present when the failure came after a response began (bad content type, reset mid body). */
  status?: number;
  headers?: Headers;
}

/**
 * One HTTP answer as it came, for a recorder (an archive's WARC): the status line, the headers,
 * and the body within the byte cap, after content decoding.
 */
export interface Answer {
  method: 'GET' | 'HEAD';
  /** The URL this request asked for (a redirect hop's own URL). */
  url: string;
  status: number;
  headers: Headers;
  requestHeaders: Headers;
  body: Uint8Array;
  /** The body was cut at a cap, or could not be read to its end. */
  truncated: boolean;
  /** When the answer's headers arrived (ms since the epoch). */
  at: number;
}

export type FetchOutcome = FetchOk | FetchNotModified | FetchHttpError | FetchFailed;

/** True when the fetch produced a usable answer: 2xx body or a 304 confirming the stored one. */
export function succeeded(o: FetchOutcome): o is FetchOk | FetchNotModified {
  return o.kind === 'ok' || o.kind === 'not-modified';
}
