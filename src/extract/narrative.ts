import { extractBlocks, type Block, type Dom } from '../html/index.js';
import { isBoilerplate, isBoilerplateTag, mainContent, type Boilerplate } from '../html/main-content.js';
import { evaluateBlock, resolveHeuristics, type HeuristicOptions } from '../text/index.js';
import { detectLanguage, stopWordRatioFor } from '../text/language.js';
import { splitSentences } from '../text/sentences.js';
import { ISO_STOP_WORD_LANGUAGES, isoStopWords } from '../text/stopwords.js';
import { tokenKey, words } from '../text/tokenize.js';
import { labelKind } from '../text/labels.js';
import { isFootnoteLine, plainTypography, withoutCitations } from '../text/typography.js';
import type { Extracted } from './extracted.js';

/**
 * `--extractor narrative`: the thesis's rules, read where a page keeps its text and judged on the
 * evidence of the whole block.
 * - Only the main content (html/main-content.ts, Readability's scoring) is read, without its
 *   navigation, share bars and comment threads.
 * - Blocks beyond p and table: list items, quotations, pre, headings, definitions, captions, the
 *   cells of layout tables, and the text a div holds itself.
 * - A block with over half its characters in links is a menu; a footnote line is apparatus.
 * - Citation markers go and typography is made plain before any rule reads the text.
 * - One or two special characters (a price, a percentage, a ©) do not reject a paragraph the other
 *   rules accept; more reject it softly, and a block dense with them is a list of figures, dropped.
 * - The headline (the h1, or a heading or line made of the `<title>`'s words) names the page and is
 *   dropped; so are link-laden blocks after the story's last plain paragraph (sign-ups, follow-us
 *   lines, credits).
 * - A blank line (two `<br>`) ends a paragraph, so a story written as text runs in one div is read
 *   paragraph by paragraph.
 * - jusText's context: a block that fails only soft rules (length, capitalisation, stop words, a
 *   few special characters) is kept inside the story or at its edge when it is a sentence, and a
 *   heading is kept when the text it heads is.
 */

const TAGS = ['li', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dd', 'dt', 'div', 'td', 'th', 'figcaption', 'section', 'article', 'main', 'center', 'font'];
const HEADING = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Rules a block may fail and still be kept near good text; link density and footnotes are never soft. */
const SOFT = new Set(['min-words', 'capitalization', 'stop-word-ratio', 'forbidden-chars']);
const MAX_LINK_DENSITY = 0.5;
/** Special characters a paragraph may hold and still be judged on its other evidence. */
const SPECIALS_ALLOWED = 2;
/**
 * Denser than one special character in this many, a block is a list of figures (prices, scores, a
 * table of numbers): rejected outright, never kept by its context as a few specials in prose are.
 */
const CHARS_PER_SPECIAL = 20;

type Judged =
  | { kind: 'kept'; text: string; words: readonly string[] }
  | { kind: 'soft'; text: string; words: readonly string[]; rules: string[] }
  | { kind: 'heading'; text: string; words: readonly string[] }
  | { kind: 'dropped'; rules: string[] };

/** Where the blocks that passed every rule begin and end (-1: none did). */
interface Story {
  first: number;
  last: number;
}

/** Less main text than this, read strictly, and the page is read again with boilerplate known by tag alone (Readability's retry). */
const MIN_MAIN_CHARS = 500;

/**
 * Less kept text than this from the main content, and the whole page is read as well (trafilatura's
 * baseline): when the scoring chose the wrong part, the story is still there to be found.
 */
const MIN_KEPT_CHARS = 250;
/** The whole page's reading replaces the main content's when it keeps this many times its text. */
const BASELINE_GAIN = 2;

export function narrativeExtract(dom: Dom, o: { heuristics: HeuristicOptions }): Extracted {
  let blocks = mainBlocks(dom, isBoilerplate);
  if (blocks.reduce((n, b) => n + b.text.length, 0) < MIN_MAIN_CHARS) blocks = mainBlocks(dom, isBoilerplateTag);
  const title = titleWords(dom);
  const main = readBlocks(blocks, title, o.heuristics);
  if (keptChars(main) >= MIN_KEPT_CHARS) return main;
  const whole = readBlocks(extractBlocks(dom, { blocks: TAGS, skip: isBoilerplateTag, splitAtBlankLines: true }), title, o.heuristics);
  return keptChars(whole) >= BASELINE_GAIN * Math.max(1, keptChars(main)) ? whole : main;
}

const keptChars = (e: Extracted) => e.kept.reduce((n, k) => n + k.text.length, 0);

/** The blocks judged one by one, then in their context: the story, its edges, its headings, its tail. */
function readBlocks(blocks: Block[], title: ReadonlySet<string>, heuristics: HeuristicOptions): Extracted {
  const h = pageHeuristics(blocks, heuristics);
  const parts = blocks.flatMap((b) => pieces(b, h.maxChars));
  // The first <h1> is the page's headline; more of them head its sections.
  const headline = parts.find((b) => b.tag === 'h1');
  // judge counts the special characters itself. Resolved once a page: options made afresh for
  // each block were checked afresh each time.
  const rules = resolveHeuristics({ ...h, disabled: [...h.disabled, 'forbidden-chars'] });
  const judged = parts.map((piece) => judge(piece, rules, title, piece === headline));
  const rejected: Record<string, number> = {};
  const reject = (rule: string, n = 1) => (rejected[rule] = (rejected[rule] ?? 0) + n);
  const kept: (Extracted['kept'][number] & { linkDensity: number; inline: boolean })[] = [];
  let passed: (j: Judged) => boolean = (j) => j.kind === 'kept';
  // No paragraph passed every rule: the story is told in lines that only lack a capital or a full
  // stop (a text cut short, a language without case, verse), when any is long enough to be one.
  if (!judged.some(passed)) passed = (j) => j.kind === 'soft' && j.rules.every((r) => r === 'capitalization');
  const story: Story = { first: judged.findIndex(passed), last: judged.findLastIndex(passed) };
  for (let i = 0; i < judged.length; i++) {
    const j = judged[i]!;
    if (j.kind === 'dropped') {
      j.rules.forEach((r) => reject(r));
      continue;
    }
    const keep = passed(j)
      || (j.kind === 'soft' && nearGood(story, judged, i))
      || (j.kind === 'heading' && headsText(story, judged, i, passed));
    if (keep) kept.push({ text: j.text, words: j.words, linkDensity: parts[i]!.linkDensity, inline: passed(j) && j.words.length >= PARAGRAPH_WORDS && !parts[i]!.endsInLink });
    else reject(j.kind === 'heading' ? 'heading-alone' : 'short-alone');
  }
  const untailed = withoutLinkedTail(kept);
  if (untailed.length < kept.length) reject('linked-tail', kept.length - untailed.length);
  const told = withoutAppeals(untailed);
  if (told.length < untailed.length) reject('appeal', untailed.length - told.length);
  const once = withoutSecondCopy(told);
  if (once.length < told.length) reject('repeated', told.length - once.length);
  return { kept: once.map(({ text, words }) => ({ text, words })), rejected, blocks: blocks.length };
}

/**
 * After a story's last paragraph without a link, blocks with links in a fifth of their text or more
 * are what sites put under their stories: a newsletter to sign up for, an author to follow, a
 * credit, a "read more". Inside the story a linked word is only a reference and stays. So does a
 * closing paragraph whose links are references too: one that passed every rule, is a paragraph
 * (PARAGRAPH_WORDS or more) and does not end on its link, as a call to follow one does.
 */
const PARAGRAPH_WORDS = 20;
const TAIL_LINK_DENSITY = 0.2;
function withoutLinkedTail<T extends { linkDensity: number; inline: boolean }>(kept: T[]): T[] {
  let lastPlain = -1;
  kept.forEach((k, i) => {
    if (k.linkDensity === 0) lastPlain = i;
  });
  return kept.filter((k, i) => i <= lastPlain || k.linkDensity < TAIL_LINK_DENSITY || k.inline);
}

/**
 * A paragraph that asks the reader to sign up or subscribe (a sentence opening with the call, in
 * the languages the labels know) is the site speaking, not the story, when it stands at the
 * story's start or end, as newsletters and memberships put their appeals. Inside the story the
 * same words are a character speaking, and stay.
 */
function withoutAppeals<T extends { text: string }>(kept: T[]): T[] {
  let first = 0;
  let last = kept.length;
  while (first < last && APPEAL.test(kept[first]!.text)) first++;
  while (last > first && APPEAL.test(kept[last - 1]!.text)) last--;
  return kept.slice(first, last);
}
const APPEAL = /(?:^|[.!?]\s+)(?:Sign up|Subscribe|Register|Join us|Suscríbete|Regístrate|Abonnez-vous|Inscrivez-vous|Abonnieren Sie|Iscriviti|Abonneer|Assine|Inscreva-se)\b/u;

/**
 * A story a page holds twice (a second layout of it, a copy for print or for another screen) is
 * read once: a run of REPEATED_RUN or more paragraphs, all different, that repeats an earlier run
 * in the same order is dropped. A paragraph repeated alone stays, as the benchmarks' truths keep it:
 * a refrain, a table's "0", a placeholder paragraph are the page's text each time.
 */
const REPEATED_RUN = 3;
/** Only paragraphs of more than this many words make a run: short lines repeat by nature. */
const RUN_WORDS = 10;
function withoutSecondCopy<T extends { words: readonly string[] }>(kept: T[]): T[] {
  const keys = kept.map((k) => (k.words.length > RUN_WORDS ? k.words.map(tokenKey).join(' ') : undefined));
  const first = new Map<string, number>();
  const drop = new Set<number>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === undefined || drop.has(i)) continue;
    const j = first.get(key);
    if (j === undefined) {
      first.set(key, i);
      continue;
    }
    const run = new Set<string>();
    let n = 0;
    while (i + n < keys.length && j + n < i && keys[i + n] !== undefined && keys[i + n] === keys[j + n] && !run.has(keys[i + n]!)) run.add(keys[i + n++]!);
    if (n >= REPEATED_RUN) for (let t = 0; t < n; t++) drop.add(i + t);
  }
  return kept.filter((_, i) => !drop.has(i));
}

/**
 * The stop-word rule speaks the page's language: the one whose stop-word list covers most of the
 * main text (text/language.ts), English with the given list (the thesis's appendix by default),
 * else one of stopwords-iso's, with the ratio scaled to that list's typical share. A page in none
 * of them is judged on the other rules, since any list would reject every paragraph. The share
 * is taken over the whole main text, so one quotation in another language does not decide, but
 * not over menus (blocks mostly of links, dropped anyway), which a site's template often keeps in
 * English whatever the language of its stories.
 */
function pageHeuristics(blocks: Block[], h: HeuristicOptions): HeuristicOptions {
  const keys: string[] = [];
  let chars = 0;
  // Block by block: one emoji or arrow then sends only its own block to the slow segmenter.
  for (const b of blocks) {
    if (chars >= LANGUAGE_SAMPLE_CHARS) break;
    if (b.linkDensity > MAX_LINK_DENSITY) continue;
    for (const w of words(b.text.slice(0, LANGUAGE_SAMPLE_CHARS - chars))) keys.push(tokenKey(w));
    chars += b.text.length + 1;
  }
  const language = detectLanguage(keys, h.stopWords, otherLanguages());
  if (language === 'en') return h;
  if (language === undefined) return { ...h, disabled: [...h.disabled, 'stop-word-ratio'] };
  return { ...h, stopWords: otherLanguages().get(language)!, minStopWordRatio: stopWordRatioFor(language, h.minStopWordRatio) };
}
const LANGUAGE_SAMPLE_CHARS = 20_000;
let others: Map<string, ReadonlySet<string>> | undefined;
const otherLanguages = () => (others ??= new Map(ISO_STOP_WORD_LANGUAGES.map((l) => [l, isoStopWords(l)])));

/** A block longer than a node may be (max-length) is cut between sentences into pieces that fit. */
function pieces(b: Block, maxChars: number): Block[] {
  if (b.text.length <= maxChars) return [b];
  const out: Block[] = [];
  let cur = '';
  for (const s of splitSentences(b.text)) {
    if (cur !== '' && cur.length + 1 + s.length > maxChars) {
      out.push({ ...b, text: cur });
      cur = '';
    }
    cur = cur === '' ? s : `${cur} ${s}`;
  }
  if (cur !== '') out.push({ ...b, text: cur });
  return out;
}

function mainBlocks(dom: Dom, boilerplate: Boilerplate): Block[] {
  return mainContent(dom, boilerplate).flatMap((root) => extractBlocks(root, { blocks: TAGS, skip: boilerplate, splitAtBlankLines: true }));
}

/** `h`: the page's rules with forbidden-chars off. */
function judge(b: Block, h: HeuristicOptions, title: ReadonlySet<string>, headline: boolean): Judged {
  const text = withoutCitations(plainTypography(b.text));
  if (text === '') return { kind: 'dropped', rules: [] };
  if (b.rejected === 'nested-table') return { kind: 'dropped', rules: [] };
  if (isFootnoteLine(text)) return { kind: 'dropped', rules: ['footnote'] };
  if (b.linkDensity > MAX_LINK_DENSITY) return { kind: 'dropped', rules: ['link-density'] };
  const v = evaluateBlock(text, h);
  const rules = v.reasons.map((r) => r.rule as string);
  // A list typed as lines: the marks that open them are its bullets, not markup. (Each piece of a
  // block cut for length carries all the block's bullets, hence the floor.)
  const n = Math.max(0, specials(v.text, h.forbiddenChars) - specials(b.bullets ?? '', h.forbiddenChars));
  if (n > SPECIALS_ALLOWED) rules.push(n > v.text.length / CHARS_PER_SPECIAL ? 'figures' : 'forbidden-chars');
  if (isTitle(v.text, v.words, b.tag, title, headline)) return { kind: 'dropped', rules: ['title'] };
  const label = labelKind(v.text, v.words);
  if (label !== undefined) return { kind: 'dropped', rules: [label] };
  if (HEADING.has(b.tag)) return v.words.length > 0 && v.words.length <= 30 ? { kind: 'heading', text: v.text, words: v.words } : { kind: 'dropped', rules: ['heading-length'] };
  if (rules.length === 0) return { kind: 'kept', text: v.text, words: v.words };
  if (rules.every((r) => SOFT.has(r)) && v.words.length > 0) return { kind: 'soft', text: v.text, words: v.words, rules };
  return { kind: 'dropped', rules };
}

function specials(text: string, forbidden: string): number {
  let n = 0;
  for (const ch of text) if (forbidden.includes(ch)) n++;
  return n;
}

/**
 * jusText's context, read in the main content: a block that fails only soft rules is kept inside
 * the story (a block that passed every rule before it and one after it), or at its edge when it is
 * a sentence or a line of a few words (a one-line paragraph, a signature). Dropped blocks do not
 * part a story: a share line or caption between two paragraphs leaves them neighbours.
 */
function nearGood(story: Story, judged: Judged[], i: number): boolean {
  if (story.first === -1) return false;
  const before = story.first !== -1 && story.first < i;
  const after = story.last > i;
  const j = judged[i] as { text: string; words: readonly string[] };
  return (before && after) || ((before || after) && (SENTENCE_END.test(j.text) || (j.words.length >= EDGE_WORDS && j.text.length >= EDGE_CHARS)));
}
/**
 * Words a line needs to be kept at a story's edge without ending as a sentence does ("Tags:" and
 * "Advert" do not), and characters: a segmenter finds three words in a four-character Japanese
 * menu item, where three English words run to a dozen letters and more.
 */
const EDGE_WORDS = 3;
const EDGE_CHARS = 15;

function titleWords(dom: Dom): ReadonlySet<string> {
  return new Set(words(dom.querySelector('title')?.text ?? '').map(tokenKey));
}

/**
 * The page's headline is its name, not its text: the `<h1>` (a page's one top heading, or the first
 * of several), and a heading or a line that is not a sentence made only of words of the document's
 * `<title>` (which often adds the site's name).
 */
function isTitle(text: string, ws: readonly string[], tag: string, title: ReadonlySet<string>, headline: boolean): boolean {
  if (headline) return true;
  if (ws.length === 0 || !ws.every((w) => title.has(tokenKey(w)))) return false;
  return HEADING.has(tag) || !SENTENCE_END.test(text);
}
const SENTENCE_END = /[.!?…]["')\]]?$/;

/**
 * The first block after the heading that is neither a heading nor dropped is kept, or is short text
 * kept near good text. A dropped block between (a shop's link, an image credit) does not part a
 * heading from its text, as it does not part two paragraphs.
 */
function headsText(story: Story, judged: Judged[], i: number, passed: (j: Judged) => boolean): boolean {
  let b = i + 1;
  while (b < judged.length && (judged[b]!.kind === 'heading' || judged[b]!.kind === 'dropped')) b++;
  if (b >= judged.length) return false;
  return passed(judged[b]!) || (judged[b]!.kind === 'soft' && nearGood(story, judged, b));
}
