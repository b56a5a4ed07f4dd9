import iconv from 'iconv-lite';
import { encodingForLabel } from './labels.js';
import { prescanEncoding } from './prescan.js';

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

/**
 * Turns the bytes of an HTML document into text the way a browser would. Labels that no browser
 * knows, or that this runtime cannot decode, are passed over as if absent, so the next source
 * decides and `source` says which one did.
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string | null): Decoded {
  const bom = bomEncoding(bytes);
  if (bom) return { text: decodeAs(bytes.subarray(bom.length), bom.encoding)!, charset: bom.encoding, source: 'bom' };

  const httpLabel = contentType ? charsetParam(contentType) : undefined;
  const httpEnc = httpLabel === undefined ? undefined : encodingForLabel(httpLabel);
  if (httpEnc) {
    const text = decodeAs(bytes, httpEnc);
    if (text !== undefined) return { text, charset: httpEnc, source: 'http' };
  }

  const metaEnc = prescanEncoding(bytes);
  if (metaEnc) {
    const text = decodeAs(bytes, metaEnc);
    if (text !== undefined) return { text, charset: metaEnc, source: 'meta' };
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

function sniff(bytes: Uint8Array): Decoded {
  if (!bytes.some((b) => b >= 0x80)) {
    return { text: new TextDecoder('utf-8').decode(bytes), charset: 'UTF-8', source: 'default' };
  }
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    // Streaming lets a sequence cut by a byte cap at the very end still count as UTF-8.
    let text = strict.decode(bytes, { stream: true });
    try {
      text += strict.decode();
    } catch {
      text += '\uFFFD';
    }
    return { text, charset: 'UTF-8', source: 'sniff' };
  } catch {
    return { text: decodeAs(bytes, 'windows-1252')!, charset: 'windows-1252', source: 'sniff' };
  }
}
