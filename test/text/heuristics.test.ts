import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../src/errors.js';
import {
  DEFAULT_HEURISTICS,
  DEFAULT_STOP_WORDS,
  RULE_NAMES,
  evaluateBlock,
  resolveHeuristics,
  type HeuristicOptions,
  type RuleName,
} from '../../src/text/index.js';

/** The reason a rule gave, or undefined when it accepted. */
function reason(rule: RuleName, text: string, options: Partial<HeuristicOptions> = {}): string | undefined {
  return evaluateBlock(text, options).reasons.find((r) => r.rule === rule)?.message;
}

const GOOD = 'The Time Traveller smiled, and he put it to us in this way as we sat by the fire.';

test('the thesis defaults and rule order', () => {
  assert.deepEqual(RULE_NAMES, ['min-words', 'max-length', 'forbidden-chars', 'capitalization', 'stop-word-ratio']);
  assert.equal(DEFAULT_HEURISTICS.minWords, 10);
  assert.equal(DEFAULT_HEURISTICS.maxChars, 8000);
  assert.equal(DEFAULT_HEURISTICS.minStopWordRatio, 0.2);
  assert.equal(DEFAULT_HEURISTICS.stopWords, DEFAULT_STOP_WORDS);
  assert.deepEqual(DEFAULT_HEURISTICS.disabled, []);
});

test('a well-formed sentence is accepted with its stats', () => {
  const v = evaluateBlock(GOOD);
  assert.deepEqual(v.reasons, []);
  assert.equal(v.accepted, true);
  assert.equal(v.stats.words, 19);
  assert.equal(v.stats.chars, GOOD.length);
  // the, and, he, put, to, us, in, this, way, as, we, by, the ("it" is not in Appendix A)
  assert.equal(v.stats.stopWords, 13);
  assert.equal(v.stats.stopWordRatio, 13 / 19);
});

test('min-words: more than ten words, numbers included', () => {
  assert.equal(reason('min-words', 'He sat by the fire and thought of all days.'), '10 words, needs more than 10');
  assert.equal(reason('min-words', 'He sat by the fire and thought of all 1,000 days.'), undefined);
  assert.equal(reason('min-words', 'Yes.'), '1 word, needs more than 10');
  assert.equal(reason('min-words', ''), '0 words, needs more than 10');
  assert.equal(reason('min-words', 'He sat by the fire.', { minWords: 4 }), undefined);
  assert.equal(reason('min-words', 'He sat by the fire.', { minWords: 5 }), '5 words, needs more than 5');
});

test('max-length: fewer than 8,000 characters, counted in code points after normalization', () => {
  const sentence = 'The man sat by the fire and he thought of the way home. ';
  const long = sentence.repeat(Math.ceil(8000 / sentence.length)).trim();
  assert.ok(long.length >= 8000);
  assert.equal(reason('max-length', long), `${long.length.toLocaleString('en-US')} characters, needs fewer than 8,000`);
  assert.equal(reason('max-length', long.slice(0, 7999)), undefined);
  assert.equal(reason('max-length', 'abcde', { maxChars: 5 }), '5 characters, needs fewer than 5');
  assert.equal(reason('max-length', 'abcd', { maxChars: 5 }), undefined);
  assert.equal(reason('max-length', '  ab\u00A0\u00A0\u2060cd  ', { maxChars: 6 }), undefined, '"ab cd" is 5');
  assert.equal(reason('max-length', '😀😀😀😀', { maxChars: 5 }), undefined, 'astral characters count once');
  assert.equal(reason('max-length', '😀😀😀😀😀', { maxChars: 5 }), '5 characters, needs fewer than 5', 'and each counts');
  assert.equal(reason('max-length', '\u{10000}\u{10000}\u{10000}', { maxChars: 4 }), undefined, 'the first astral plane (high surrogate D800) too');
  assert.equal(reason('max-length', '\u{10FFFF}\u{10FFFF}\u{10FFFF}', { maxChars: 4 }), undefined, 'and the last (DBFF)');
  assert.equal(reason('max-length', '！！！！！', { maxChars: 5 }), '5 characters, needs fewer than 5', 'a BMP character past the surrogates counts once');
});

test('forbidden-chars: each default character rejects, named with its position', () => {
  const forbidden = ['#', '[', ']', '{', '}', '<', '>', '|', '\\', '^', '~', '`', '=', '*', '_', '@', '$', '%', '€', '£', '¥', '¢', '©', '®', '™', '•'];
  for (const ch of forbidden) {
    const cp = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    assert.equal(reason('forbidden-chars', `Here ${ch} is.`), `forbidden character "${ch}" (U+${cp}) at character 6`, ch);
  }
  assert.equal(reason('forbidden-chars', 'Broken \uFFFD text.'), 'forbidden character "\uFFFD" (U+FFFD) at character 8');
  assert.equal(reason('forbidden-chars', 'Caf\u0082 text.'), 'forbidden character U+0082 at character 4', 'C1 control from a mis-decoded page');
  assert.equal(reason('forbidden-chars', 'Nul\u0000 here.'), 'forbidden character U+0000 at character 4');
  // The ends of the C0 and C1 control ranges.
  assert.equal(reason('forbidden-chars', 'Unit\u001F sep.'), 'forbidden character U+001F at character 5');
  assert.equal(reason('forbidden-chars', 'App\u009F cmd.'), 'forbidden character U+009F at character 4');
});

test('forbidden-chars: prose punctuation and round parentheses are allowed', () => {
  const prose = 'It was—so he said (and “twice” at that)—a ‘fine’ day; wasn’t it? Yes: 1–2, A/B & C + D… "ok" \'ok\' «oui» - !';
  assert.equal(reason('forbidden-chars', prose), undefined);
});

test('forbidden-chars: the position is in the normalized text, and the total is given', () => {
  assert.equal(
    reason('forbidden-chars', '\u00A0 Price:\u2060 $5, or [so] #1.'),
    'forbidden character "$" (U+0024) at character 8; 4 forbidden characters in all',
  );
});

test('forbidden-chars: the set is an option', () => {
  assert.equal(reason('forbidden-chars', 'Chapter #1 of [it].', { forbiddenChars: '' }), undefined);
  assert.equal(reason('forbidden-chars', 'He said (so).', { forbiddenChars: '()' }), 'forbidden character "(" (U+0028) at character 9; 2 forbidden characters in all');
});

test('capitalization: starts uppercase after opening quotes, brackets, dashes or an ellipsis', () => {
  for (const ok of ['He went.', '“He went.”', '‘He went.’', '"He went."', "'He went.'", '(He went.)', '[He went.]', '— He went.', '—He went.', '… He went.', '...He went.', '“ ‘He went,’ she said.”', '¿Qué pasa?', '“ ’Pon my word, he went.”', 'ǅemal went.']) {
    assert.equal(reason('capitalization', ok), undefined, ok);
  }
  assert.equal(reason('capitalization', 'he went.'), 'starts with lowercase "h" (U+0068)');
  assert.equal(reason('capitalization', '“—but she went.”'), 'starts with lowercase "b" (U+0062)');
  assert.equal(reason('capitalization', '© 2001–11 Mark Pilgrim.'), 'starts with "©" (U+00A9), not an uppercase letter');
  assert.equal(reason('capitalization', '7th. Set the pips.'), 'starts with "7" (U+0037), not an uppercase letter');
  assert.equal(reason('capitalization', '— …'), 'has no letter to start with');
  assert.equal(reason('capitalization', ''), 'has no letter to start with; has no terminator to end with');
});

test('capitalization: ends with a terminator, closing quotes and brackets after it allowed', () => {
  for (const ok of ['He went.', 'He went!', 'He went?', 'He went…', 'He went.”', 'He went?’', 'He went!)', 'He went.’”', 'He went.] ', 'He went?!', 'He went‽', 'He went. ”']) {
    assert.equal(reason('capitalization', ok), undefined, ok);
  }
  assert.equal(reason('capitalization', 'He went'), 'ends with "t" (U+0074), needs . ! ? or … (before any closing quote or bracket)');
  assert.equal(reason('capitalization', 'He said:'), 'ends with ":" (U+003A), needs . ! ? or … (before any closing quote or bracket)');
  assert.equal(reason('capitalization', 'He said “go”'), 'ends with "o" (U+006F), needs . ! ? or … (before any closing quote or bracket)');
  assert.equal(reason('capitalization', 'All rights reserved'), 'ends with "d" (U+0064), needs . ! ? or … (before any closing quote or bracket)');
});

test('capitalization: a dash before a closing quote is interrupted speech and ends a paragraph', () => {
  assert.equal(reason('capitalization', '“Oh, this,” began Filby, “is all⁠—”'), undefined);
  assert.equal(reason('capitalization', 'And then he went—'), 'ends with "—" (U+2014), needs . ! ? or … (before any closing quote or bracket)');
});

test('capitalization: caseless scripts pass the start check; the stop-word rule judges them', () => {
  const v = evaluateBlock('東京は日本の首都であり、多くの人々が毎日電車で通勤している大きな都市です。');
  assert.equal(reason('capitalization', v.text), undefined);
  assert.deepEqual(v.reasons.map((r) => r.rule), ['stop-word-ratio']);
  assert.equal(reason('capitalization', 'שלום עולם.'), undefined);
  for (const end of ['。', '！', '？', '｡']) assert.equal(reason('capitalization', `他来了${end}`), undefined, `ends with ${end}`);
});

test('stop-word-ratio: at least 20% of the words, boundary included', () => {
  // 2 stop words (the, of) in 10 words: exactly 20%
  assert.equal(reason('stop-word-ratio', 'The price list of red green blue yellow purple hats.'), undefined);
  assert.equal(
    reason('stop-word-ratio', 'The price list: red green blue yellow purple orange hats.'),
    '1 of 10 words are stop words (10%), needs at least 20%',
  );
  assert.equal(reason('stop-word-ratio', 'Home Products Services Contact Careers.'), '0 of 5 words are stop words (0%), needs at least 20%');
  assert.equal(reason('stop-word-ratio', ''), '0 of 0 words are stop words (0%), needs at least 20%');
  assert.equal(
    reason('stop-word-ratio', '“Third right, fourth left,” answered the assistant promptly, closing the door.'),
    '2 of 11 words are stop words (18.1%), needs at least 20%',
    'rounded down, never shown as the threshold it missed',
  );
});

test('stop-word-ratio: threshold and list are options', () => {
  const text = 'Home Products Services Contact Careers.';
  assert.equal(reason('stop-word-ratio', text, { minStopWordRatio: 0 }), undefined);
  assert.equal(reason('stop-word-ratio', text, { stopWords: new Set(['home']) }), undefined);
  assert.equal(reason('stop-word-ratio', GOOD, { minStopWordRatio: 0.75 }), '13 of 19 words are stop words (68.4%), needs at least 75%');
});

test('stop words are matched case-blind and with curly apostrophes folded', () => {
  const v = evaluateBlock('THE Cat’s on IT.', { stopWords: new Set(["cat's", 'the']) });
  assert.equal(v.stats.stopWords, 2);
});

test('every rule runs: a block failing all five reports five reasons in rule order', () => {
  const v = evaluateBlock('x'.repeat(8000) + '#');
  assert.equal(v.accepted, false);
  assert.deepEqual(v.reasons.map((r) => r.rule), [...RULE_NAMES]);
  assert.deepEqual(v.reasons.map((r) => r.message), [
    '1 word, needs more than 10',
    '8,001 characters, needs fewer than 8,000',
    'forbidden character "#" (U+0023) at character 8,001',
    'starts with lowercase "x" (U+0078); ends with "#" (U+0023), needs . ! ? or … (before any closing quote or bracket)',
    '0 of 1 words are stop words (0%), needs at least 20%',
  ]);
});

test('disabled rules do not run; stats are still computed', () => {
  const v = evaluateBlock('home | about', { disabled: ['min-words', 'forbidden-chars', 'capitalization', 'stop-word-ratio'] });
  assert.equal(v.accepted, true);
  assert.equal(v.stats.words, 2);
  const all = evaluateBlock('x'.repeat(9000) + '#', { disabled: [...RULE_NAMES] });
  assert.equal(all.accepted, true);
  assert.deepEqual(all.reasons, []);
});

test('undefined options keep the defaults', () => {
  assert.equal(evaluateBlock(GOOD, { minWords: undefined, stopWords: undefined }).accepted, true);
});

test('the verdict carries the normalized text', () => {
  assert.equal(evaluateBlock('  He\u00A0went\u2060—far. ').text, 'He went—far.');
});

test('bad options are UserErrors naming the option, the value and the fix', () => {
  const cases: [Partial<HeuristicOptions>, RegExp][] = [
    [{ minWords: -1 }, /minWords/],
    [{ minWords: 2.5 }, /minWords/],
    [{ maxChars: 0 }, /maxChars/],
    [{ minStopWordRatio: 1.5 }, /minStopWordRatio/],
    [{ minStopWordRatio: Number.NaN }, /minStopWordRatio/],
    [{ forbiddenChars: 5 as unknown as string }, /forbiddenChars/],
    [{ stopWords: ['the'] as unknown as Set<string> }, /stopWords/],
    [{ disabled: ['min-word' as RuleName] }, /unknown heuristic rule disabled/],
    [{ disabled: 'min-words' as unknown as RuleName[] }, /^invalid heuristic option disabled$/],
    [{ minStopWordRatio: -0.1 }, /minStopWordRatio/],
    [{ minWord: 3 } as Partial<HeuristicOptions>, /unknown heuristic option minWord/],
  ];
  for (const [options, message] of cases) {
    assert.throws(
      () => evaluateBlock(GOOD, options),
      (e: unknown) => e instanceof UserError && message.test(e.message) && e.value !== undefined && !!e.fix,
      JSON.stringify(options),
    );
  }
});

test('a bad option\'s message names it and its fix lists what is allowed', () => {
  const caught = (options: Partial<HeuristicOptions>) => {
    try {
      resolveHeuristics(options);
    } catch (e) {
      return e as UserError;
    }
    assert.fail(`${JSON.stringify(options)} was accepted`);
  };
  assert.equal(caught({ minWords: -1 }).message, 'invalid heuristic option minWords');
  const unknown = caught({ minWord: 3 } as Partial<HeuristicOptions>);
  for (const known of Object.keys(DEFAULT_HEURISTICS)) assert.ok(unknown.fix!.includes(known), `${known} in: ${unknown.fix}`);
  const rule = caught({ disabled: ['min-word' as RuleName] });
  for (const name of RULE_NAMES) assert.ok(rule.fix!.includes(name), `${name} in: ${rule.fix}`);
});

test('the bounds themselves are allowed: no minimum words, one character, a stop-word share of 0 or 1', () => {
  for (const options of [{ minWords: 0 }, { maxChars: 1 }, { minStopWordRatio: 0 }, { minStopWordRatio: 1 }]) {
    assert.doesNotThrow(() => resolveHeuristics(options), JSON.stringify(options));
  }
});

test('an empty block has a stop-word share of 0, not NaN', () => {
  assert.equal(evaluateBlock('').stats.stopWordRatio, 0);
});

test('options are resolved once: the result is frozen and taken as it is, and a changed copy is checked again', () => {
  const resolved = resolveHeuristics({ minWords: 3 });
  assert.ok(Object.isFrozen(resolved));
  assert.equal(resolveHeuristics(resolved), resolved);
  assert.throws(() => Object.assign(resolved, { minWords: -1 }), TypeError);
  assert.throws(() => evaluateBlock(GOOD, { ...resolved, minWords: -1 }), UserError);
  assert.equal(reason('min-words', 'It was a dark night.', resolved), undefined);
  assert.notEqual(reason('min-words', 'It was a dark night.'), undefined);
});
