import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { packageRoot } from '../package-root.js';
import { tokenKey, words } from './tokenize.js';

/*
 * The one place in src/text that touches the disk: word lists are data files under stopwords/,
 * read synchronously once and cached, so the rules themselves stay pure.
 */

/** A list name (a file stopwords/NAME.txt in the package); anything else is taken as a path. */
const LIST_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** The folder of the shipped word lists. */
export function stopWordsDir(): string {
  return join(packageRoot(), 'stopwords');
}

/** Names of the shipped lists, for help texts and error fixes. */
export function stopWordListNames(): string[] {
  return readdirSync(stopWordsDir())
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -'.txt'.length))
    .sort();
}

const cache = new Map<string, ReadonlySet<string>>();

/**
 * A stop-word list by name ('appendix-a', the thesis's Appendix A) or by file path. Format: one
 * word a line, `#` lines and blank lines skipped, words compared as tokenize() keys (lowercase,
 * ASCII apostrophe). Throws UserError for a missing file, a line holding more than one word, or a
 * list with no words (which would make every block fail the stop-word rule).
 */
export function loadStopWords(name = 'appendix-a'): ReadonlySet<string> {
  const file = LIST_NAME.test(name) ? join(stopWordsDir(), `${name}.txt`) : resolve(name);
  const cached = cache.get(file);
  if (cached) return cached;
  if (!existsSync(file)) {
    throw new UserError('stop-word list not found', {
      value: name,
      fix: `name a shipped list (${stopWordListNames().join(', ')}) or give a path to a file with one word a line`,
    });
  }
  const set = parseStopWords(readFileSync(file, 'utf8'), file);
  cache.set(file, set);
  return set;
}

/** The parsing half of loadStopWords, pure; `file` only labels errors. */
export function parseStopWords(content: string, file = '<stop words>'): ReadonlySet<string> {
  const set = new Set<string>();
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (/\s/.test(line)) {
      throw new UserError('a stop-word list holds one word a line', {
        file,
        line: i + 1,
        col: line.search(/\s/) + raw.indexOf(line) + 1,
        value: line,
        fix: 'put each word on its own line',
      });
    }
    set.add(tokenKey(line));
  });
  if (set.size === 0) {
    throw new UserError('stop-word list has no words', {
      file,
      fix: 'add one word a line (lines starting with # are comments)',
    });
  }
  return set;
}

/** The thesis's list (Appendix A), loaded when this module is first imported. */
export const DEFAULT_STOP_WORDS: ReadonlySet<string> = loadStopWords();

/**
 * Languages whose stop words come from the stopwords-iso package (maintained lists of 58
 * languages, MIT): the ones the narrative extractor tells a page's language by, beside the
 * thesis's English list.
 */
export const ISO_STOP_WORD_LANGUAGES = ['es', 'pt', 'fr', 'de', 'it', 'nl', 'ru', 'ja', 'zh'] as const;
export type IsoStopWordLanguage = (typeof ISO_STOP_WORD_LANGUAGES)[number];

const isoCache = new Map<string, ReadonlySet<string>>();

/**
 * The stopwords-iso list of a language (ISO 639-1 code), as tokenize() keys. Entries that are not
 * one word as the tokenizer reads it are left out: digits and punctuation (Spanish lists 0 to 9,
 * Chinese 、 and 。), which no stop-word count should reward, and the few phrases with a space.
 */
export function isoStopWords(language: IsoStopWordLanguage): ReadonlySet<string> {
  const cached = isoCache.get(language);
  if (cached) return cached;
  const all = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>;
  const set = new Set<string>();
  for (const entry of all[language] ?? []) {
    const ws = words(entry);
    if (ws.length === 1 && ws[0] === entry.trim() && /\p{L}/u.test(entry)) set.add(tokenKey(entry));
  }
  isoCache.set(language, set);
  return set;
}
