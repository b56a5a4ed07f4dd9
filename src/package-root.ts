import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
let cached: string | undefined;

/**
 * The folder holding anwc's package.json, where its data files live (stopwords/, sql/, demo/,
 * ane-markup/). Compiled code runs from dist/src/ and tsx from src/, so the depth differs; walking
 * up works for both and for node_modules/anwc.
 */
export function packageRoot(from: string = HERE): string {
  if (from === HERE && cached !== undefined) return cached;
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      if (from === HERE) cached = dir;
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
