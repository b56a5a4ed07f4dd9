import { hash } from 'node:crypto';

/**
 * SHA-256 in hex: the identity of a node's text, a link's URL and a markup file's content. The
 * one-shot `crypto.hash` makes no Hash object: half the time of createHash's for a URL or a
 * paragraph, and a page's store takes some fifteen.
 */
export function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}
