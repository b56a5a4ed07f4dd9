import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { stem } from '../../src/text/index.js';
import { sharedPath, needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('data/porter');

/** Both files end with an extra empty line (see data/porter/SOURCE.txt); it is not a pair. */
function lines(file: string): string[] {
  const all = readFileSync(sharedPath('data', 'porter', file), 'utf8').split('\n');
  while (all.at(-1) === '') all.pop();
  return all;
}

test("Porter's reference vocabulary: every one of the 23,531 words stems as output.txt says", { skip: SHARED }, () => {
  const voc = lines('voc.txt');
  const out = lines('output.txt');
  assert.equal(voc.length, 23531);
  assert.equal(out.length, voc.length);
  const wrong: string[] = [];
  const check = (i: number) => {
    const got = stem(voc[i]!);
    if (got !== out[i]) wrong.push(`${voc[i]} → ${got}, expected ${out[i]}`);
  };
  voc.forEach((_, i) => check(i));
  // Again, backwards: the stems kept from the first pass (some 20,000, stem.ts) answer first.
  for (let i = voc.length - 1; i >= 0; i--) check(i);
  const matched = 2 * voc.length - wrong.length;
  assert.equal(matched, 2 * voc.length, `${matched}/${voc.length} pairs match; first misses: ${wrong.slice(0, 5).join('; ')}`);
});

test('stem lowercases first, as meta words arrive in any case', () => {
  assert.equal(stem('Running'), 'run');
  assert.equal(stem('CARESSES'), 'caress');
  assert.equal(stem('ponies'), 'poni');
});
