import { Worker, type ResourceLimits } from 'node:worker_threads';
import { StoreUnavailableError } from '../errors.js';
import { ThreadCalls } from '../thread-calls.js';
import type { Store } from './store.js';
import { receiveError, STORE_METHODS, type Call, type Reply, type SentError, type StoreMethod, type ThreadOptions } from './thread-protocol.js';

/**
 * A SQLite thread's memory, kept small for a 100,000-page harvest to stay under 250 MB (bench
 * crawl's sweep, with the harvest's --heap-budget): the crawl's reads are the heads of the
 * frontier's indexes and the rows just written (the band keys are in memory), so better-sqlite3's
 * 16 MB page cache bought no speed and 2 MB gives back 14 MB. Since the thread decides near-copies
 * it makes more garbage: at a young generation of 2 MB it collected 1,123 times in a 10,020-page
 * harvest (0.10 ms a page), at 4 MB 569 times (0.07 ms), and a 100,000-page harvest peaked at 235
 * and 236 MB (--trace-gc; bench crawl's sweep harvest, one run each). A MySQL thread parses every
 * answer: V8's defaults (its harvest's peak RSS 235 MB at 10,000 pages, 259 at 50,000, against 190
 * and 198 on one thread; a young generation of 4 MB gave back 25 MB and some of the speed). A
 * user's own `--max-semi-space-size` rules every thread instead (V8 takes the flag over a thread's
 * resourceLimits).
 */
const CACHE_KIB = 2000;
const YOUNG_GENERATION_MB = 4;

/**
 * A store whose connection lives on a thread of its own (issue: speed), for a crawl, whose main
 * thread is its bound. On one thread SQLite's statements and commits took a third of a SQLite
 * harvest's main thread (bench profile: 0.31 of 0.83 ms a page); mysql2's reading and writing of
 * packets took 28 % of a MariaDB harvest's, whose pages/s rose on the thread by a ninth at 10,000
 * pages (bench crawl, 695 → 781, medians of four interleaved runs) and by a sixth to a third at
 * 50,000 (774 → 901, 702 → 948; BENCH_CRAWL_PAGES=2500). Here they run beside the crawl on the
 * second core, and the messages cost the main thread 0.05 ms a page. Each call is a message; the
 * calls made in one turn go as one, and the thread starts them in one turn, so group commits and a
 * MySQL transaction's batched statements still form.
 *
 * The thread holds the process open only while a call waits for its answer, so a command that
 * forgets close() still ends. If the thread dies, every call waiting and every later one fails
 * as a store gone away (exit code 4; what was committed stays).
 */
export async function openStoreThread(dbUrl: string, kind: Store['kind'], mustExist: boolean): Promise<Store> {
  const workerData: ThreadOptions = { dbUrl, mustExist, ...(kind === 'sqlite' ? { cacheKib: CACHE_KIB } : {}) };
  const resourceLimits: ResourceLimits = kind === 'sqlite' ? { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } : {};
  const worker = new Worker(new URL('./thread-worker.js', import.meta.url), { workerData, resourceLimits });
  const opened = await new Promise<{ ready: boolean; error?: SentError }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  if (!opened.ready) {
    await worker.terminate();
    throw receiveError(opened.error!);
  }
  return new ThreadStore(worker, kind) as unknown as Store;
}

export class ThreadStore {
  private readonly calls = new ThreadCalls<Call>((batch) => this.send(batch));
  private gone: Error | undefined;

  constructor(private readonly worker: Worker, readonly kind: Store['kind']) {
    worker.unref();
    worker.on('message', (replies: Reply[]) => this.answer(replies));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`exit code ${code}`)));
    for (const method of STORE_METHODS) {
      (this as unknown as Record<string, unknown>)[method] = method === 'close' ? () => this.shutdown() : (...args: unknown[]) => this.call(method, args);
    }
  }

  private call(method: StoreMethod, args: unknown[]): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    return this.calls.call(this.worker, (id) => ({ id, method, args }));
  }

  private send(calls: Call[]): void {
    try {
      this.worker.postMessage(calls);
    } catch {
      // A value that cannot be cloned (a function, a class's private state) is its caller's bug:
      // that call fails, the others of its turn go one by one.
      for (const c of calls) {
        try {
          this.worker.postMessage([c]);
        } catch (err) {
          this.calls.settle(c.id, { error: err });
        }
      }
      this.calls.unrefIfIdle(this.worker);
    }
  }

  private answer(replies: Reply[]): void {
    for (const r of replies) this.calls.settle(r.id, 'error' in r ? { error: receiveError(r.error) } : { value: r.value });
    this.calls.unrefIfIdle(this.worker);
  }

  private fail(cause: Error): void {
    this.gone ??= new StoreUnavailableError(`the ${this.label()} store's thread stopped (${cause.message})`, cause);
    this.calls.failAll(this.gone);
  }

  private label(): string {
    return this.kind === 'sqlite' ? 'SQLite' : 'MariaDB/MySQL';
  }

  private async shutdown(): Promise<void> {
    if (this.gone) return;
    await this.call('close', []);
    this.gone = new StoreUnavailableError(`the ${this.label()} store is closed`);
    await this.worker.terminate();
  }
}
