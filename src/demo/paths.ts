import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

export { packageRoot };

/** demo/sites: one folder per virtual host, named by the host (`harbour-tales.demo`). */
export function defaultSitesDir(): string {
  return join(packageRoot(), 'demo', 'sites');
}
