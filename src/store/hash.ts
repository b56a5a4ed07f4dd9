import { createHash } from 'node:crypto';

/** SHA-256 in hex: the identity of a node's text, a link's URL and a markup file's content. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
