/** Content-type gating: what the fetcher agrees to download and hand on as a page. */

export const DEFAULT_ACCEPT: readonly string[] = ['text/html', 'application/xhtml+xml', 'text/plain'];

/** `text/HTML; charset=x` → `text/html`; null when absent or unparsable. */
export function essence(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const e = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(e) ? e : null;
}

/**
 * Whether a response type is on the accept list. `*\/*` and `text/*` style entries work. A
 * missing type is accepted when HTML is: many small servers send none, and the body sniff
 * (looksBinary) still stops what is not text.
 */
export function accepts(accept: readonly string[], contentType: string | null | undefined): boolean {
  const e = essence(contentType);
  if (e === null) return accept.includes('text/html') || accept.includes('*/*');
  const major = e.split('/')[0];
  return accept.some((a) => a === '*/*' || a === e || (a.endsWith('/*') && a.slice(0, -2) === major));
}

/**
 * The MIME Sniffing standard's "binary data byte" test over the first 1024 bytes: control
 * bytes that no text uses. A page declared text/html that holds them is not a page. UTF-16 with
 * a byte order mark is text despite its zero bytes.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) return false;
  const n = Math.min(bytes.length, 1024);
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return true;
  }
  return false;
}
