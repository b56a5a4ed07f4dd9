import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from './open.js';
import type { Store } from './store.js';
import { parseDbUrl } from './url.js';
import { sendError, type Call, type Reply, type ThreadOptions } from './thread-protocol.js';

/*
 * The store's thread: it owns the store's connection (SQLite's, or MySQL's pool) and answers the
 * crawl's calls (thread.ts). A batch of calls is started in one turn, as the crawl made them, so
 * the claims and completions that met on the main thread still meet in one transaction (SQLite's
 * GroupCommit) or one batch of statements (MySQL's); the replies of one turn go back in one message.
 */
const port = parentPort!;
const { dbUrl, mustExist, cacheKib } = workerData as ThreadOptions;
let store: Store;
try {
  const target = parseDbUrl(dbUrl);
  store = target.kind === 'sqlite'
    ? (await import('./sqlite/store.js')).SqliteStore.open(target.path, { cacheKib })
    : await openStore(dbUrl, { mustExist });
  port.postMessage({ ready: true });
} catch (err) {
  port.postMessage({ ready: false, error: sendError(err) });
  process.exit(0);
}

let replies: Reply[] = [];
function reply(r: Reply): void {
  replies.push(r);
  if (replies.length === 1) {
    queueMicrotask(() => {
      const out = replies;
      replies = [];
      port.postMessage(out);
    });
  }
}

port.on('message', (calls: Call[]) => {
  for (const { id, method, args } of calls) {
    let result: Promise<unknown>;
    try {
      result = (store[method] as (...a: unknown[]) => Promise<unknown>).apply(store, args);
    } catch (err) {
      result = Promise.reject(err);
    }
    result.then((value) => reply({ id, value }), (err: unknown) => reply({ id, error: sendError(err) }));
  }
});
