import { Worker } from 'node:worker_threads';
import { ThreadCalls } from '../../thread-calls.js';
import { startWorkerWithYoungGeneration } from '../../young-generation.js';
import type { ActResult } from '../engine.js';
import type { MetaContext, NarrativeOptions, NarrativePage } from './narrative.js';
import type { ActionCall, ActionReply } from './narrative-worker.js';

/**
 * The thread's young generation, in MB a semi-space, whatever the process's own (the store's thread
 * has 4 MB in all, store/thread.ts; the main thread V8's default, cli/node-flags.ts). A real page of some 100 kB
 * builds a tree that outlives a young generation of 2 MB: the scavenges that meet it copy it, then
 * promote it. Harvests of bench/real-web.ts's 2,020 pages, 4 interleaved rounds (medians): 2 MB
 * 84.5 pages/s, 17.2 ms of CPU a page, peak RSS 262 MB; 4 MB 82, 18.0, 282; 8 MB 102, 14.6, 304.
 * On the graded web's small pages, whose garbage dies young, it made no difference to speed.
 */
const YOUNG_GENERATION_SEMI_MB = 8;

const startWorker = (): Worker => startWorkerWithYoungGeneration(new URL('./narrative-worker.js', import.meta.url), YOUNG_GENERATION_SEMI_MB);

/**
 * The narrative action (parse, blocks, the thesis rules, band keys) on a thread of its own (issue:
 * speed). A harvest's main thread is its bound, and the action was two fifths of it (bench
 * profile: rules, parse); on a machine with a core to spare it runs beside the fetching and the
 * walk, as the store does (store/thread.ts). Bench crawl, SQLite, five interleaved pairs on two
 * cores: 0.38–0.40 of `fetch + action` without it, 0.40–0.43 with it (pages/s 971–1,061 against
 * 1,015–1,180); MariaDB, one pair, 512 → 541 pages/s. A fetched page crosses as its bytes
 * (narrative.ts pageOfFetch); the topic profiles, the same for every page of a run, cross once.
 *
 * A page whose action throws fails alone, with the action's message, as it does on the main
 * thread. A thread that dies fails the pages waiting on it; the next page starts a new one. Idle,
 * the thread does not hold the process open.
 */
export class NarrativeThread {
  private worker: Worker | undefined;
  private readonly calls = new ThreadCalls<ActionCall>((batch) => this.send(batch));
  /** The topics the current thread holds; a new thread holds none. */
  private topicsSent: MetaContext['topics'] | null = null;

  constructor(private readonly start: () => Worker = startWorker) {}

  act(page: NarrativePage, meta: MetaContext, opts: NarrativeOptions): Promise<ActResult> {
    const worker = this.worker ?? this.started();
    const { topics, ...lineage } = meta;
    const call = (id: number): ActionCall => ({
      id,
      page: crossing(page),
      meta: lineage,
      opts,
      ...(topics !== this.topicsSent ? { topics: topics ?? null } : {}),
    });
    const answer = this.calls.call<ActResult>(worker, call);
    this.topicsSent = topics;
    return answer;
  }

  /** Ends the thread; a page still waiting on it fails. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.calls.failAll(new Error('the page-reading thread was closed'));
    await worker?.terminate();
  }

  private started(): Worker {
    const worker = this.start();
    this.worker = worker;
    this.topicsSent = null;
    worker.unref();
    worker.on('message', (replies: ActionReply[]) => {
      for (const r of replies) this.calls.settle(r.id, 'error' in r ? { error: new Error(r.error) } : { value: r.value });
      this.calls.unrefIfIdle(worker);
    });
    worker.on('error', (err) => this.stopped(worker, err.message));
    worker.on('exit', (code) => this.stopped(worker, `exit code ${code}`));
    return worker;
  }

  /** A turn's pages; those of a thread that stopped since were failed with it. */
  private send(calls: ActionCall[]): void {
    try {
      this.worker?.postMessage(calls);
    } catch (err) {
      // Only options that cannot be cloned (a caller's bug) get here; the pages of the turn fail.
      this.calls.failAll(err, calls.map((c) => c.id));
    }
  }

  private stopped(worker: Worker, why: string): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    this.calls.failAll(new Error(`the page-reading thread stopped (${why})`));
  }
}

/** The page as it crosses: bytes viewing a larger buffer cross as a copy of their own, not with the whole buffer. */
function crossing(page: NarrativePage): NarrativePage {
  const { finalUrl, status, headers, truncated } = page;
  if (!('bytes' in page)) return { finalUrl, status, headers, truncated, text: page.text };
  const bytes = page.bytes.byteLength === page.bytes.buffer.byteLength ? page.bytes : page.bytes.slice();
  return { finalUrl, status, headers, truncated, bytes, contentType: page.contentType };
}
