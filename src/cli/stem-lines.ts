import { createInterface } from 'node:readline';
import { stem } from '../text/stem.js';

/**
 * What `anwc stem` prints: the Porter stem of each word given, or of each word of each line of
 * the input, a line's stems on its line.
 */
export async function stemLines(words: readonly string[], input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<void> {
  const out: string[] = [];
  const flush = () => {
    if (out.length) output.write(out.join('\n') + '\n');
    out.length = 0;
  };
  const stemLine = (line: string) => line.trim().split(/\s+/).filter(Boolean).map(stem).join(' ');
  if (words.length > 0) {
    for (const w of words) out.push(stemLine(w));
    flush();
    return;
  }
  const rl = createInterface({ input, crlfDelay: Infinity });
  for await (const line of rl) {
    out.push(stemLine(line));
    if (out.length >= 4096) flush();
  }
  flush();
}
