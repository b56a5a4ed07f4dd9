/*
 * Lines that label a story rather than tell it: who wrote it and when (a byline, a date line),
 * whose it is (a copyright or rights line), and what a reader types (a shell or configuration line
 * shown as code). They read as prose to the five rules: a name is capitalised, a date line may end
 * with a full stop. Each test is about the line's shape and its language's common words, never a
 * site's wording; the month names come from Intl, so every language it knows is read alike.
 */

/** Languages whose bylines, dates and rights lines are recognised (ISO 639-1). */
const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl'] as const;

/** "By", "Por", "Von"… then a capitalised name: the opening of a byline. */
const BY = /^(?:By|BY|Written by|Words by|Por|Von|Par|Di|Door|Av|Af)\s+\p{Lu}/u;
/** Dates and times as pages print them: 11/18/19, 2019-11-18, 18.11.2019, 11:04 PM, 9h30. */
const NUMERIC_DATE = /\b\d{4}[/.-]\d{1,2}[/.-]\d{1,2}\b|\b\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}h\d{2}\b/;
const YEAR = /\b(?:19|20)\d{2}\b/;
/** ©, (c) 2019, and "all rights reserved" in the languages above. */
const RIGHTS = /©|\(c\)\s*(?:19|20)\d{2}|\ball rights reserved\b|\bderechos reservados\b|\bdireitos reservados\b|\bdroits réservés\b|\brechte vorbehalten\b|\bdiritti riservati\b|\brechten voorbehouden\b/iu;
/** A shell prompt or a package source line: `$ sudo apt-get install …`, `# make`, `deb https://… main`. */
const COMMAND = /^(?:[$#%>]\s+\S|sudo\s|deb(?:-src)?\s+\w+:\/\/)/;

/** A label is short: a byline or date line that runs on past this many words is a sentence about a date. */
const LABEL_WORDS = 14;

let monthWords: ReadonlySet<string> | undefined;
/** Month names and their abbreviations in LANGUAGES, lower case, without a trailing full stop. */
function months(): ReadonlySet<string> {
  if (monthWords) return monthWords;
  const out = new Set<string>();
  for (const lang of LANGUAGES) {
    for (const month of ['long', 'short'] as const) {
      const f = new Intl.DateTimeFormat(lang, { month, timeZone: 'UTC' });
      for (let m = 0; m < 12; m++) out.add(f.format(new Date(Date.UTC(2000, m, 15))).toLowerCase().replace(/\.$/, ''));
    }
  }
  // "May" and "mar" are words too: a month counts only beside a number (hasDate).
  monthWords = out;
  return out;
}

/** A date is written in the line: numbers as a date or time, or a month's name beside a number or a year. */
function hasDate(text: string, words: readonly string[]): boolean {
  if (NUMERIC_DATE.test(text)) return true;
  const m = months();
  const lower = words.map((w) => w.toLowerCase().replace(/\.$/, ''));
  return lower.some((w, i) => m.has(w) && (/^\d{1,4}$/.test(lower[i - 1] ?? '') || /^\d{1,4}(?:st|nd|rd|th)?$/.test(lower[i + 1] ?? '') || YEAR.test(lower[i + 1] ?? '') || YEAR.test(lower[i + 2] ?? '')));
}

/**
 * What the line is, when it is a label: 'byline' (By … or a short line with a date that does not
 * read as a sentence), 'rights' (a copyright line), 'command' (a line to type). undefined for text.
 */
export function labelKind(text: string, words: readonly string[]): 'byline' | 'rights' | 'command' | undefined {
  const t = text.trim();
  if (COMMAND.test(t)) return 'command';
  if (words.length <= LABEL_WORDS * 2 && RIGHTS.test(t)) return 'rights';
  if (words.length > LABEL_WORDS) return undefined;
  if (BY.test(t) && !/[.!?]["')\]]?$/.test(t.replace(/\b\p{Lu}\.$/u, ''))) return 'byline';
  if (BY.test(t) && hasDate(t, words)) return 'byline';
  if (hasDate(t, words) && !/[.!?]$/.test(t) && !/\s\p{Ll}+\s\p{Ll}+\s\p{Ll}+\s/u.test(` ${withoutDates(t)} `)) return 'byline';
  return undefined;
}

/** The line with its dates, times and month names taken out, to see whether what is left reads as a sentence. */
function withoutDates(t: string): string {
  const m = months();
  return t
    .replace(NUMERIC_DATE, ' ')
    .split(/\s+/)
    .map((w) => (m.has(w.toLowerCase().replace(/[.,]$/, '')) ? '0' : w))
    .join(' ');
}
