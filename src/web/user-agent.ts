import { VERSION } from '../version.js';

/** Who we are on the wire (MOMspider 5.3): a product token servers can match in robots.txt and block, and where to complain. */

export const DEFAULT_PRODUCT = `anwc/${VERSION.split('.').slice(0, 2).join('.')}`;
export const DEFAULT_CONTACT = 'https://github.com/anwc/anwc';

/** `anwc/0.1 (+https://github.com/anwc/anwc)`; a product that already has a comment is kept as it is. */
export function userAgentHeader(product = DEFAULT_PRODUCT, contact = DEFAULT_CONTACT): string {
  if (product.includes('(')) return product;
  return contact ? `${product} (+${contact})` : product;
}

/** The bare product token robots.txt groups are matched against (RFC 9309 2.2.1): `anwc`. */
export function productToken(userAgent: string): string {
  const m = /^[A-Za-z_-]+/.exec(userAgent.trim());
  return (m ? m[0] : 'anwc').toLowerCase();
}
