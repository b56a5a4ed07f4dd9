import { UserError } from '../errors.js';

/**
 * A markup file's bytes as text. Markup is UTF-8 (a BOM is allowed, the lexer skips it); bytes that
 * are not, a Latin-1 file or a binary one, are refused at the first of them, by line and column,
 * rather than stored as U+FFFD or reported as dozens of syntax errors.
 */
export function decodeMarkup(bytes: Uint8Array, file: string): string {
  // Notepad and Word save "Unicode" as UTF-16 with its byte order mark: a Latin-1 hint would mislead.
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'UTF-16LE' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'UTF-16BE' : undefined;
  if (utf16) {
    throw new UserError(`not UTF-8 text: the file is ${utf16} (it starts with the byte order mark 0x${bytes[0]!.toString(16)} 0x${bytes[1]!.toString(16)})`, {
      file, line: 1, col: 1, fix: `save the file as UTF-8 (iconv -f ${utf16} -t utf-8, or "UTF-8" in your editor's encoding menu)`,
    });
  }
  // The BOM stays in the text (the lexer skips it), so that offsets in the text and in the bytes agree.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) {
    const at = Buffer.byteLength(text.slice(0, i), 'utf8');
    // U+FFFD written in the file (EF BF BD) is text like any other.
    if (bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) continue;
    const before = text.slice(0, i);
    const line = before.split('\n').length;
    const col = i - before.lastIndexOf('\n');
    throw new UserError(`not UTF-8 text: byte 0x${bytes[at]!.toString(16).padStart(2, '0')} is not a UTF-8 character`, {
      file, line, col, fix: 'save the file as UTF-8 (iconv -f latin1 -t utf-8, or your editor\'s encoding menu)',
    });
  }
  return text;
}
