import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding package.json, found by walking up from this module, so the same code finds
 * demo/ when it runs from src/demo (tsx) and from dist/src/demo (compiled).
 */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** demo/sites: one folder per virtual host, named by the host (`harbour-tales.demo`). */
export function defaultSitesDir(): string {
  return join(packageRoot(), 'demo', 'sites');
}
