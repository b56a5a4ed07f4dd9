import type { StoreSummary, WaitingRetries } from '../../store/store.js';
import type { WalkStats } from '../../walk/stats.js';
import { waitingText } from './waiting.js';
import { ELEMENTS_CAP } from '../../html/limits.js';

/** Text for people: the end-of-run summary of `anwc harvest` and the database view of `anwc stats`. */

const pct = (n: number, d: number) => (d > 0 ? `${((100 * n) / d).toFixed(1)}%` : '-');

function table(rows: [string, string | number][], indent = '  '): string[] {
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${indent}${k.padEnd(width)}  ${v}`);
}

function counts(title: string, map: Record<string, number>, total?: number): string[] {
  const entries = Object.entries(map).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return [];
  return [title, ...table(entries.map(([k, n]) => [k, total === undefined ? String(n) : `${n} (${pct(n, total)})`]))];
}

export interface WheelRow {
  host: string;
  score: number;
  share: number;
  pages?: number;
  nodes?: number;
}

export function wheelLines(wheel: WheelRow[]): string[] {
  if (wheel.length === 0) return [];
  const hostWidth = Math.max(4, ...wheel.map((w) => w.host.length));
  const head = `  ${'host'.padEnd(hostWidth)}  score   share  ${wheel[0]!.pages !== undefined ? 'pages  nodes' : ''}`.trimEnd();
  return [
    'the wheel (top domains by score):',
    head,
    ...wheel.map((w) => {
      const bar = '█'.repeat(Math.max(1, Math.round(w.share * 40)));
      const extra = w.pages !== undefined ? `  ${String(w.pages).padStart(5)}  ${String(w.nodes ?? 0).padStart(5)}` : '';
      return `  ${w.host.padEnd(hostWidth)}  ${w.score.toFixed(0).padStart(5)}  ${(100 * w.share).toFixed(1).padStart(5)}%${extra}  ${bar}`;
    }),
  ];
}

export function runSummaryLines(
  stats: WalkStats, stop: string, elapsedMs: number, wheel: WheelRow[], givenUp: string[] = [], requeued = 0, what = 'harvest',
): string[] {
  const s = stats;
  const secs = elapsedMs / 1000;
  // Nodes, blocks and the wheel are the harvest's; other activities keep none of them.
  const harvest = what === 'harvest';
  return [
    `${what} stopped: ${stop} after ${secs.toFixed(1)} s`,
    ...table([
      ['pages walked', `${s.pagesDone} (${(s.pagesDone / Math.max(secs, 0.001)).toFixed(1)}/s)`],
      ['pages fetched', s.pagesFetched],
      ...(harvest
        ? ([
            ['pages with a node', `${s.pagesWithNodes} (${pct(s.pagesWithNodes, s.pagesFetched)} of fetched)`],
            ['narrative nodes', `${s.nodes} (${s.newNodes} new)`],
            ...(s.offTopicDropped > 0 ? [['dropped, on no topic', `${s.offTopicDropped} (--keep drop)`]] : []),
            ['stored, on no topic', `${s.offTopic}${s.nodes > 0 ? ` (${pct(s.offTopic, s.nodes)})` : ''}`],
            ['blocks judged', `${s.blocks}: ${s.nodes} accepted (${pct(s.nodes, s.blocks)})`],
          ] as [string, string][])
        : []),
      ['links added', s.newLinks],
      ['domains', s.hosts.size],
    ]),
    // Every link walked is one of these, so the summary accounts for all of them (a redirect is walked, not fetched).
    ...counts('pages walked, by outcome:', s.outcomes, s.pagesDone),
    ...counts('blocks rejected, by rule (a block can fail several):', s.blockRejections),
    ...counts(`links not ${harvest ? 'harvested' : 'walked'}, by reason:`, s.failures),
    ...counts(`links put back to try again later (${s.retries}), by cause:`, s.retryCauses),
    ...(requeued > 0 ? [`links refused by an earlier run's settings, looked at again: ${requeued}`] : []),
    ...counts('links dropped at discovery, by constraint:', s.droppedLinks),
    ...(s.linksCut > 0 ? [`links past the cap of links a page (--max-links-per-page), not stored: ${s.linksCut} on ${s.pagesCut} page(s)`] : []),
    ...(s.pagesInPart > 0 ? [`pages read only in part (a body cut at --max-bytes, or a tree past ${ELEMENTS_CAP}): ${s.pagesInPart}`] : []),
    ...(givenUp.length > 0 ? [`hosts given up after errors in a row (their links wait for the next run): ${givenUp.join(', ')}`] : []),
    ...(harvest ? wheelLines(wheel) : []),
  ];
}

/**
 * `waiting` is the store's own count of the links not due yet (Store.waitingRetries at `now`): a
 * link whose retry time has passed is simply pending, and `links by status` counts it there.
 */
export function storeSummaryLines(sum: StoreSummary, wheel: WheelRow[], now = Date.now(), waiting?: WaitingRetries | null): string[] {
  const totalLinks = Object.values(sum.links).reduce((a, b) => a + b, 0);
  return [
    ...table([
      ['nodes', `${sum.nodes.author + sum.nodes.crawler} (author ${sum.nodes.author}, crawler ${sum.nodes.crawler})`],
      ['crawler nodes on no topic', `${sum.offTopic}${sum.nodes.crawler > 0 ? ` (${pct(sum.offTopic, sum.nodes.crawler)}; no meta word can draw them, anwc why-node ID says why)` : ''}`],
      ['meta words', sum.metaWords],
      ['search queries', sum.queries],
      ['domains', sum.domains],
      ['links', totalLinks],
    ], ''),
    ...counts('links by status:', sum.links, totalLinks),
    ...counts('links by outcome:', sum.outcomes),
    ...counts('failures by kind:', sum.failures),
    ...(sum.nodeStatus.changed + sum.nodeStatus.gone > 0
      ? [`crawler nodes by source (anwc maintain --nodes): ok ${sum.nodeStatus.ok}, changed ${sum.nodeStatus.changed}, gone ${sum.nodeStatus.gone} (pick skips gone ones)`]
      : []),
    ...(sum.reviews.approved + sum.reviews.rejected > 0
      ? [`crawler nodes by review (anwc serve): approved ${sum.reviews.approved}, rejected ${sum.reviews.rejected}, not reviewed ${sum.reviews.unreviewed} (pick and export skip rejected ones)`]
      : []),
    ...(sum.copies.exact + sum.copies.near > 0
      ? [`paragraphs met again on other pages: ${sum.copies.exact + sum.copies.near} (the same text ${sum.copies.exact}, near-copies ${sum.copies.near}), each linked to its stored node`]
      : []),
    ...(sum.retries.retried > 0 ? [`retries: ${sum.retries.retried} link(s) needed more than one try`] : []),
    ...(waiting ? [waitingText(waiting, now)] : []),
    ...wheelLines(wheel),
  ];
}
