import { readFileSync, readdirSync } from 'node:fs';
import { sharedPath } from '../support/shared.js';

/*
 * Paragraphs of the real pages under ../shared/corpus, read in place. A regex over <p>…</p> is
 * enough for Standard Ebooks' regular XHTML; src/html does the real extraction, and these tests
 * must not depend on it.
 */

export const TIME_MACHINE = 'standardebooks-h-g-wells_the-time-machine';
export const SHERLOCK = 'standardebooks-arthur-conan-doyle_the-adventures-of-sherlock-holmes';
export const CHICKENS = 'standardebooks-p-g-wodehouse_love-among-the-chickens';

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0',
  copy: '©', ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return NAMED[e] ?? m;
  });
}

/** Text of every <p> of one file, tags dropped, entities decoded, typography untouched. */
export function paragraphsOf(...path: string[]): string[] {
  const html = readFileSync(sharedPath('corpus', ...path), 'utf8');
  return [...html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)].map((m) => decodeEntities((m[1] ?? '').replace(/<[^>]+>/g, '')));
}

/** Paragraphs of every chapter or story file of a Standard Ebooks book (no title or imprint pages). */
export function bookParagraphs(book: string): string[] {
  const files = readdirSync(sharedPath('corpus', book, 'text'))
    .filter((f) => f.endsWith('.xhtml') && !/^(titlepage|imprint|colophon|uncopyright|endnotes|dedication|toc|halftitlepage)/.test(f))
    .sort();
  return files.flatMap((f) => paragraphsOf(book, 'text', f));
}
