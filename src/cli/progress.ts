import cliProgress from 'cli-progress';
import type { WalkStats } from '../walk/stats.js';
import type { WaitingRetries } from '../store/store.js';
import type { DelayBound } from '../walk/delay-watch.js';
import { delayBoundJson, delayBoundText } from './report/delay-bound.js';
import { waitingJson, waitingText } from './report/waiting.js';

export type ProgressMode = 'auto' | 'bar' | 'json' | 'none';

export interface ProgressView {
  update(stats: WalkStats, extra: { domains: number; elapsedMs: number; queue: number; waiting?: WaitingRetries; delayBound?: DelayBound }): void;
  stop(): void;
}

/**
 * Live progress of a harvest: a bar on a terminal (pages against the budget, nodes, domains, queue,
 * rate), otherwise one JSON line on stderr every few seconds, so a log stays readable and parseable.
 * Both say when links wait for a retry, how many and until when: a walk that waits is not stuck;
 * and when the politeness delay sets the pace, with the flags that lift it on a site of one's own.
 */
export function progressView(
  mode: ProgressMode, maxPages: number | undefined, stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now,
): ProgressView {
  const resolvedMode = mode === 'auto' ? (stream.isTTY ? 'bar' : 'json') : mode;
  if (resolvedMode === 'none') return { update() {}, stop() {} };
  if (resolvedMode === 'json') {
    let last = 0;
    return {
      update(s, x) {
        if (x.elapsedMs - last < 5000) return;
        last = x.elapsedMs;
        stream.write(`${JSON.stringify({ progress: {
          elapsedS: Math.round(x.elapsedMs / 1000), pages: s.pagesDone, nodes: s.nodes, newNodes: s.newNodes, domains: x.domains, queue: x.queue,
          budgetLeft: maxPages === undefined ? null : maxPages - s.pagesStarted, waiting: waitingJson(x.waiting, now()),
          delayBound: delayBoundJson(x.delayBound),
        } })}\n`);
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: ' {bar} {value}/{total} pages | {nodes} nodes | {domains} domains | queue {queue} | {rate}/s{waiting}{bound}',
      hideCursor: true,
      clearOnComplete: false,
      barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(maxPages ?? 1, 0, { nodes: 0, domains: 0, queue: 0, rate: '0.0', waiting: '', bound: '' });
  return {
    update(s, x) {
      // Without a page budget the bar's end is the work known so far: walked plus queued.
      bar.setTotal(maxPages ?? Math.max(1, s.pagesDone + x.queue));
      bar.update(s.pagesDone, {
        nodes: s.nodes, domains: x.domains, queue: x.queue, rate: (s.pagesDone / Math.max(x.elapsedMs / 1000, 0.001)).toFixed(1),
        waiting: x.waiting ? ` | ${waitingText(x.waiting, now())}` : '',
        bound: x.delayBound ? ` | ${delayBoundText(x.delayBound)}` : '',
      });
    },
    stop() {
      bar.stop();
    },
  };
}
