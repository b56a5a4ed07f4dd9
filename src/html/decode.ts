import { isAscii, isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { encodingForLabel } from './labels.js';
import { prescanEncoding } from './prescan.js';
import { cutUnseen, cutUnseenBytes } from './unseen.js';

/**
 * Where the encoding came from, in the order the HTML standard consults them: a byte order mark,
 * the HTTP Content-Type charset, a `<meta>` in the first 1024 bytes, a look at the bytes, or the
 * default when no byte could tell (pure ASCII reads the same in every candidate).
 */
export type CharsetSource = 'bom' | 'http' | 'meta' | 'sniff' | 'default';

export interface Decoded {
  text: string;
  /** The WHATWG name of the encoding used, e.g. "UTF-8", "windows-1252", "Shift_JIS". */
  charset: string;
  source: CharsetSource;
}

/** How a document's bytes are to be read, found without reading them all into text. */
export interface Encoding {
  charset: string;
  source: CharsetSource;
  /** Bytes of a byte order mark before the text. */
  bom: number;
}

/**
 * Turns the bytes of an HTML document into text the way a browser would. Labels that no browser
 * knows, or that this runtime cannot decode, are passed over as if absent, so the next source
 * decides and `source` says which one did.
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string | null): Decoded {
  const e = detectEncoding(bytes, contentType);
  return { text: decodeText(bytes, e), charset: e.charset, source: e.source };
}

/** The text of the bytes in the encoding detectEncoding found. */
export function decodeText(bytes: Uint8Array, e: Encoding): string {
  return decodeAs(bytes.subarray(e.bom), e.charset)!;
}

/**
 * The text of the bytes without what no reader sees (unseen.ts), as cutUnseen(decodeText(bytes, e))
 * gives it, made without decoding the scripts and styles where the encoding lets them be cut as
 * bytes. For a reader of the page, not of its source: parseVisible takes it.
 */
export function decodeVisible(bytes: Uint8Array, e: Encoding): string {
  const body = bytes.subarray(e.bom);
  const cut = e.charset === 'UTF-8' || SINGLE_BYTE.has(e.charset) ? cutUnseenBytes(body, e.charset === 'UTF-8') : undefined;
  return cut ? decodeAs(cut, e.charset)! : cutUnseen(decodeAs(body, e.charset)!);
}

/**
 * The WHATWG single-byte encodings: each byte one character, and those below 0x80 ASCII. The
 * multi-byte legacy encodings are left out: a broken character before a cut could take a byte
 * after it as its second.
 */
const SINGLE_BYTE: ReadonlySet<string> = new Set([
  'IBM866', 'ISO-8859-2', 'ISO-8859-3', 'ISO-8859-4', 'ISO-8859-5', 'ISO-8859-6', 'ISO-8859-7', 'ISO-8859-8', 'ISO-8859-8-I',
  'ISO-8859-10', 'ISO-8859-13', 'ISO-8859-14', 'ISO-8859-15', 'ISO-8859-16', 'KOI8-R', 'KOI8-U', 'macintosh', 'windows-874',
  'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253', 'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257',
  'windows-1258', 'x-mac-cyrillic', 'x-user-defined',
]);

/**
 * The encoding decodeHtml would use, without making the text: a fetch that only reports it (or a
 * page not yet needed as text) holds its bytes and no copy of them as a string, which is up to
 * twice their size.
 */
export function detectEncoding(bytes: Uint8Array, contentType?: string | null): Encoding {
  const bom = bomEncoding(bytes);
  if (bom) return { charset: bom.encoding, source: 'bom', bom: bom.length };

  const httpLabel = contentType ? charsetParam(contentType) : undefined;
  const httpEnc = httpLabel === undefined ? undefined : encodingForLabel(httpLabel);
  if (httpEnc && canDecode(httpEnc)) return { charset: httpEnc, source: 'http', bom: 0 };

  const metaEnc = prescanEncoding(bytes);
  if (metaEnc && canDecode(metaEnc)) {
    // A page moved to UTF-8 often keeps the template's old <meta charset>: bytes beyond ASCII that
    // are all valid UTF-8 are that by every odds (no legacy text of any length is also UTF-8 by
    // chance), and a browser's reading of them as the meta says would be mojibake.
    if (metaEnc !== 'UTF-8' && !isAscii(bytes) && validUtf8(bytes)) return { charset: 'UTF-8', source: 'sniff', bom: 0 };
    return { charset: metaEnc, source: 'meta', bom: 0 };
  }

  return sniff(bytes);
}

function bomEncoding(b: Uint8Array): { encoding: string; length: number } | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'UTF-8', length: 3 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'UTF-16BE', length: 2 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'UTF-16LE', length: 2 };
  return undefined;
}

/**
 * The charset parameter of a MIME type such as `text/html; Charset="ISO-8859-1"`. The first
 * occurrence wins, as in the MIME Sniffing standard; quotes and backslash escapes are undone.
 */
export function charsetParam(contentType: string): string | undefined {
  const semi = contentType.indexOf(';');
  if (semi < 0) return undefined;
  const s = contentType;
  let i = semi + 1;
  while (i < s.length) {
    while (i < s.length && /[\s;]/.test(s[i]!)) i++;
    let name = '';
    while (i < s.length && s[i] !== '=' && s[i] !== ';') name += s[i++];
    if (s[i] !== '=') continue;
    i++;
    let value = '';
    if (s[i] === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) value += s[i] === '\\' && i + 1 < s.length ? s[++i] : s[i];
      while (i < s.length && s[i] !== ';') i++;
    } else {
      while (i < s.length && s[i] !== ';') value += s[i++];
      value = value.trim();
    }
    if (name.trim().toLowerCase() === 'charset' && value !== '') return value;
  }
  return undefined;
}

/** Which iconv-lite codec implements a WHATWG encoding, where their names differ. */
const ICONV_NAME: Record<string, string> = {
  IBM866: 'cp866',
  'ISO-8859-8-I': 'iso-8859-8',
  'x-mac-cyrillic': 'maccyrillic',
  // WHATWG's GBK decoder is the gb18030 decoder, its Big5 includes HKSCS, and its EUC-KR is
  // Microsoft's superset; the narrower codecs would turn real pages' characters into U+FFFD.
  GBK: 'gb18030',
  Big5: 'big5-hkscs',
  'EUC-KR': 'cp949',
};

/** Whether this runtime has a decoder for a WHATWG encoding (decodeAs gives text for it). */
function canDecode(encoding: string): boolean {
  if (encoding === 'UTF-8' || encoding === 'replacement' || encoding === 'x-user-defined') return true;
  if (iconv.encodingExists(ICONV_NAME[encoding] ?? encoding.toLowerCase())) return true;
  try {
    new TextDecoder(encoding);
    return true;
  } catch {
    return false;
  }
}

/** The text of `bytes` in `encoding`, or undefined when this runtime has no decoder for it. */
function decodeAs(bytes: Uint8Array, encoding: string): string | undefined {
  if (encoding === 'UTF-8') return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  // The standard maps these labels to "replacement" because decoding them invites script
  // injection; a browser shows a single U+FFFD and so do we.
  if (encoding === 'replacement') return bytes.length ? '\uFFFD' : '';
  if (encoding === 'x-user-defined') {
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b < 0x80 ? b : 0xf780 + b - 0x80);
    return s;
  }
  const name = ICONV_NAME[encoding] ?? encoding.toLowerCase();
  if (iconv.encodingExists(name)) {
    return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), name, { stripBOM: false });
  }
  // iconv-lite lacks a few (ISO-2022-JP); Node's TextDecoder has them when built with full ICU.
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Pure ASCII reads the same in every candidate; other bytes are UTF-8 when they are valid UTF-8, else windows-1252. */
function sniff(bytes: Uint8Array): Encoding {
  // Checked natively: a callback for each byte took a fifth of decodeHtml's time.
  if (isAscii(bytes)) return { charset: 'UTF-8', source: 'default', bom: 0 };
  return { charset: validUtf8(bytes) ? 'UTF-8' : 'windows-1252', source: 'sniff', bom: 0 };
}

/**
 * Whether the bytes are UTF-8, a sequence cut by a byte cap at the very end included (its start
 * must be valid as far as it goes). Checked in place: decoding to test would make the whole text
 * once more.
 */
function validUtf8(bytes: Uint8Array): boolean {
  // Where the last sequence starts (a byte that is not a continuation byte), among the last four.
  let last = bytes.length - 1;
  while (last > 0 && last > bytes.length - 4 && (bytes[last]! & 0xc0) === 0x80) last--;
  const lead = bytes[last] ?? 0;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (last + length <= bytes.length) return isUtf8(bytes);
  // A sequence the cap cut short: what is before it must be UTF-8, and it must be the start of one.
  if (!isUtf8(bytes.subarray(0, last))) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(last), { stream: true });
    return true;
  } catch {
    return false;
  }
}
