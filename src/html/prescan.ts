import { encodingForLabel } from './labels.js';

/**
 * The HTML standard's "prescan a byte stream to determine its encoding": what a browser reads
 * from `<meta charset>` or `<meta http-equiv=content-type content="…; charset=…">` before it
 * parses anything. Followed step by step rather than with a regular expression, because pages
 * hide look-alike metas in comments, in other tags' attributes and after junk that a regex would
 * match and a browser would not.
 */

const WS = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;
const isUpper = (b: number) => b >= 0x41 && b <= 0x5a;
const isLetter = (b: number) => isUpper(b) || (b >= 0x61 && b <= 0x7a);
const lower = (b: number) => (isUpper(b) ? b + 0x20 : b);

/** How many bytes a browser looks at; a `<meta>` later than this does not count. */
export const PRESCAN_BYTES = 1024;

export function prescanEncoding(bytes: Uint8Array): string | undefined {
  const end = Math.min(bytes.length, PRESCAN_BYTES);
  const at = (i: number) => (i < end ? bytes[i]! : -1);
  const startsWith = (i: number, ascii: string) => {
    for (let k = 0; k < ascii.length; k++) if (lower(at(i + k)) !== ascii.charCodeAt(k)) return false;
    return true;
  };
  let pos = 0;

  /** "Get an attribute": returns [name, value] or undefined at `>` or the end. */
  const getAttribute = (): [string, string] | undefined => {
    while (WS.has(at(pos)) || at(pos) === SLASH) pos++;
    if (at(pos) === GT || pos >= end) return undefined;
    let name = '';
    let value = '';
    for (;;) {
      const b = at(pos);
      if (b < 0) return [name, value];
      if (b === EQ && name !== '') {
        pos++;
        break;
      }
      if (WS.has(b)) {
        while (WS.has(at(pos))) pos++;
        if (at(pos) !== EQ) return [name, value];
        pos++;
        break;
      }
      if (b === SLASH || b === GT) return [name, value];
      name += String.fromCharCode(lower(b));
      pos++;
    }
    while (WS.has(at(pos))) pos++;
    const q = at(pos);
    if (q === 0x22 || q === 0x27) {
      for (;;) {
        pos++;
        const b = at(pos);
        if (b < 0) return [name, value];
        if (b === q) {
          pos++;
          return [name, value];
        }
        value += String.fromCharCode(lower(b));
      }
    }
    if (q === GT || q < 0) return [name, value];
    for (;;) {
      const b = at(pos);
      if (b < 0 || WS.has(b) || b === GT) return [name, value];
      value += String.fromCharCode(lower(b));
      pos++;
    }
  };

  while (pos < end) {
    if (startsWith(pos, '<!--')) {
      // The closing `-->` may share its dashes with the opening, so `<!-->` is a whole comment.
      let p = pos + 2;
      while (p < end && !(bytes[p] === GT && bytes[p - 1] === 0x2d && bytes[p - 2] === 0x2d)) p++;
      pos = p + 1;
      continue;
    }
    if (startsWith(pos, '<meta') && (WS.has(at(pos + 5)) || at(pos + 5) === SLASH)) {
      pos += 5;
      const found = readMeta(getAttribute);
      if (found) return found;
      pos++;
      continue;
    }
    if (at(pos) === LT && (isLetter(at(pos + 1)) || (at(pos + 1) === SLASH && isLetter(at(pos + 2))))) {
      while (pos < end && !WS.has(at(pos)) && at(pos) !== GT) pos++;
      while (getAttribute()) {
        /* attributes of other tags are skipped so that their values cannot pass for a meta */
      }
      pos++;
      continue;
    }
    if (startsWith(pos, '<!') || startsWith(pos, '</') || startsWith(pos, '<?')) {
      while (pos < end && at(pos) !== GT) pos++;
      pos++;
      continue;
    }
    pos++;
  }
  return undefined;
}

function readMeta(getAttribute: () => [string, string] | undefined): string | undefined {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | undefined;
  let charset: string | undefined;
  for (let attr = getAttribute(); attr; attr = getAttribute()) {
    const [name, value] = attr;
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === 'http-equiv') {
      if (value === 'content-type') gotPragma = true;
    } else if (name === 'content') {
      const enc = charsetFromContent(value);
      if (enc !== undefined && charset === undefined) {
        charset = encodingForLabel(enc) ?? '';
        needPragma = true;
      }
    } else if (name === 'charset') {
      charset = encodingForLabel(value) ?? '';
      needPragma = false;
    }
  }
  if (needPragma === undefined || (needPragma && !gotPragma) || !charset) return undefined;
  // A document whose bytes a prescan could read as ASCII cannot be UTF-16, whatever it says.
  if (charset === 'UTF-16BE' || charset === 'UTF-16LE') return 'UTF-8';
  if (charset === 'x-user-defined') return 'windows-1252';
  return charset;
}

/**
 * "Extracting a character encoding from a meta element": the label after `charset=` in a
 * content attribute such as `text/html; charset=utf-8`, or undefined when there is none.
 */
export function charsetFromContent(content: string): string | undefined {
  const s = content;
  let from = 0;
  for (;;) {
    const i = s.toLowerCase().indexOf('charset', from);
    if (i < 0) return undefined;
    let p = i + 7;
    while (p < s.length && /[\t\n\f\r ]/.test(s[p]!)) p++;
    if (s[p] !== '=') {
      from = p;
      continue;
    }
    p++;
    while (p < s.length && /[\t\n\f\r ]/.test(s[p]!)) p++;
    const c = s[p];
    if (c === undefined) return undefined;
    if (c === '"' || c === "'") {
      const close = s.indexOf(c, p + 1);
      return close < 0 ? undefined : s.slice(p + 1, close);
    }
    const m = /^[^\t\n\f\r ;]*/.exec(s.slice(p));
    return m ? m[0] : undefined;
  }
}
