/** The html module: bytes → text → DOM → blocks and links. Pure: no I/O. */
export { decodeHtml, charsetParam, type Decoded, type CharsetSource } from './decode.js';
export { encodingForLabel } from './labels.js';
