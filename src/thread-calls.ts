import type { Worker } from 'node:worker_threads';

/**
 * Calls to a worker thread answered by id: the store's thread (store/thread.ts) and the narrative
 * action's (walk/actions/narrative-thread.ts). The calls made in one turn go as one message, so
 * the thread can start them in one turn as they were made; the thread holds the process open only
 * while a call waits for its answer, so a command that forgets to close it still ends.
 */
export class ThreadCalls<C extends { id: number }> {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: never) => void; reject: (e: unknown) => void }>();
  private batch: C[] = [];

  /** `post` sends a turn's calls, once a turn, after the turn's calls are made. */
  constructor(private readonly post: (calls: C[]) => void) {}

  call<R>(worker: Worker, make: (id: number) => C): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const c = make(this.nextId++);
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(c.id, { resolve: resolve as (v: never) => void, reject });
      this.batch.push(c);
      if (this.batch.length === 1) {
        queueMicrotask(() => {
          const calls = this.batch;
          this.batch = [];
          this.post(calls);
        });
      }
    });
  }

  /** Settles the call `id` if it still waits. */
  settle(id: number, outcome: { value: unknown } | { error: unknown }): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    if ('error' in outcome) w.reject(outcome.error);
    else w.resolve(outcome.value as never);
  }

  /** Fails the calls given, or every call waiting. */
  failAll(error: unknown, ids: Iterable<number> = [...this.waiting.keys()]): void {
    for (const id of ids) this.settle(id, { error });
  }

  /** Once no call waits, the thread no longer holds the process open. */
  unrefIfIdle(worker: Worker): void {
    if (this.waiting.size === 0) worker.unref();
  }
}
