import { VERSION } from '../version.js';
import { productToken } from './robots-parse.js';

/**
 * Who we are on the wire (MOMspider 5.3): a product token servers can name in robots.txt, and
 * where to write to the person running the crawler.
 */

export const DEFAULT_PRODUCT = `anwc/${VERSION.split('.').slice(0, 2).join('.')}`;
export const DEFAULT_CONTACT = 'https://github.com/anwc/anwc';

/** `anwc/0.1 (+https://github.com/anwc/anwc)`; a product that already carries a comment is kept as given. */
export function userAgentHeader(product = DEFAULT_PRODUCT, contact = DEFAULT_CONTACT): string {
  if (product.includes('(')) return product;
  return contact ? `${product} (+${contact})` : product;
}

/** The token robots.txt and X-Robots-Tag name us by, from the same settings as the header. */
export function robotsToken(product?: string, contact?: string): string {
  return productToken(userAgentHeader(product, contact));
}
