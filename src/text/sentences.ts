/**
 * Sentences of a block, split by Intl.Segmenter's sentence rules (UAX #29), trimmed, empty ones
 * dropped. Used for the `{\sen}` groups of stored and exported nodes.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const s = segment.trim();
    if (s) out.push(s);
  }
  return out;
}
