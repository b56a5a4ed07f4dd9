/** The html module: bytes → text → DOM → blocks and links. Pure: no I/O. */
export { decodeHtml, charsetParam, type Decoded, type CharsetSource } from './decode.js';
export { encodingForLabel } from './labels.js';
export { elementsCut, parseBytes, parseDom, type Dom } from './dom.js';
export { extractBlocks, blockTags, DEFAULT_BLOCK_TAGS, type Block, type BlockOptions } from './blocks.js';
export { extractLinks, refreshTarget, type PageLinks, type PageLink, type PageRobots } from './links.js';
