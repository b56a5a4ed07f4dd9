/**
 * What anwc keeps of the dates and validators a server sends (Last-Modified, Expires, ETag), to
 * ask again conditionally, to store with a link and to report: each only when it is well-formed
 * and fits the store's columns. An 8 KiB Last-Modified or a date in the year 275760 is left out,
 * as if the server had sent none: the page is then fetched whole, which is always correct.
 */

/** IMF-fixdate is 29 characters; the obsolete forms RFC 9110 §5.6.7 still asks us to read are longer, none past this. */
export const HTTP_DATE_MAX_CHARS = 64;
/** The years an HTTP date may name: four digits (RFC 9110 §5.6.7), and none before the epoch. */
export const HTTP_DATE_YEARS = { from: 1970, to: 9999 } as const;
/** The longest ETag kept: the width of the links table's column. */
export const ETAG_MAX_CHARS = 255;

const ASCTIME = /^[a-z]{3} [a-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/i;
const FIRST = Date.UTC(HTTP_DATE_YEARS.from, 0, 1);
const LAST = Date.UTC(HTTP_DATE_YEARS.to + 1, 0, 1) - 1;

/** An HTTP date as epoch ms, when it reads as one within HTTP_DATE_YEARS in at most HTTP_DATE_MAX_CHARS. */
export function readHttpDate(value: string | undefined): number | undefined {
  if (value === undefined || value.length > HTTP_DATE_MAX_CHARS || !/[a-z]/i.test(value)) return undefined;
  // asctime-date carries no zone and means GMT; Date.parse would read it in local time.
  const at = Date.parse(ASCTIME.test(value.trim()) ? `${value} GMT` : value);
  return Number.isNaN(at) || at < FIRST || at > LAST ? undefined : at;
}

/** The value of a date header (`last-modified`, `expires`) as the server wrote it, when it reads as a date. */
export function httpDateHeader(headers: Record<string, string>, name: 'last-modified' | 'expires'): string | undefined {
  const v = headers[name];
  return readHttpDate(v) === undefined ? undefined : v;
}

/** What a server gave to ask again conditionally (If-None-Match, If-Modified-Since). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** The validators of an answer, when it gave any that can be kept. */
export function validatorsOf(headers: Record<string, string>): Validators | undefined {
  const etag = headers.etag !== undefined && headers.etag.length <= ETAG_MAX_CHARS ? headers.etag : undefined;
  const lastModified = httpDateHeader(headers, 'last-modified');
  return etag || lastModified ? { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) } : undefined;
}
