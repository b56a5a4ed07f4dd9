import type { WalkOutcome } from './outcome.js';

/** Counters of one walk, fed by the engine and read by progress lines and the summary. */
export class WalkStats {
  pagesStarted = 0;
  /** Links that reached an outcome in this run. */
  pagesDone = 0;
  /** Pages fetched with a usable answer (harvested, noindex, not-modified). */
  pagesFetched = 0;
  /** Fetched pages that yielded at least one narrative node. */
  pagesWithNodes = 0;
  nodes = 0;
  newNodes = 0;
  /** Nodes stored though linked to no meta word, and those not stored for it (--keep drop). */
  offTopic = 0;
  offTopicDropped = 0;
  newLinks = 0;
  blocks = 0;
  leaseLost = 0;
  /** Transient failures put back for another try (not counted in pagesDone: the link is not done). */
  retries = 0;
  readonly retryCauses: Record<string, number> = {};
  readonly outcomes: Record<string, number> = {};
  readonly blockRejections: Record<string, number> = {};
  readonly failures: Record<string, number> = {};
  readonly droppedLinks: Record<string, number> = {};
  /** Links past the cap of links a page, never stored, and the pages that had them. */
  linksCut = 0;
  pagesCut = 0;
  /** Pages read only in part: a body cut at --max-bytes, or a tree at MAX_ELEMENTS (html/dom.ts). */
  pagesInPart = 0;
  readonly hosts = new Set<string>();

  record(o: WalkOutcome, host: string, newNodes: number, newLinks: number, linksCut = 0): void {
    this.pagesDone++;
    if (linksCut > 0) {
      this.linksCut += linksCut;
      this.pagesCut++;
    }
    if ('truncated' in o && o.truncated) this.pagesInPart++;
    this.hosts.add(host);
    this.outcomes[o.kind] = (this.outcomes[o.kind] ?? 0) + 1;
    this.newNodes += newNodes;
    this.newLinks += newLinks;
    switch (o.kind) {
      case 'harvested':
        this.pagesFetched++;
        this.blocks += o.blocks;
        this.nodes += o.nodes;
        this.offTopic += o.offTopic ?? 0;
        this.offTopicDropped += o.offTopicDropped ?? 0;
        if (o.nodes > 0) this.pagesWithNodes++;
        for (const [rule, n] of Object.entries(o.rejected)) bump(this.blockRejections, rule, n);
        break;
      case 'walked':
      case 'noindex':
      case 'not-modified':
        this.pagesFetched++;
        break;
      case 'redirected':
        break;
      case 'failed':
        bump(this.failures, o.failure, 1);
        break;
      case 'http-error':
        bump(this.failures, `http-${o.status}`, 1);
        break;
      case 'rejected':
        bump(this.failures, `constraint: ${o.constraint}`, 1);
        break;
      case 'robots':
        bump(this.failures, 'robots', 1);
        break;
      case 'refused':
        bump(this.failures, o.reason, 1);
        break;
    }
  }

  /** A transient failure that sent its link back to the frontier. */
  retryScheduled(o: WalkOutcome): void {
    this.retries++;
    const cause = o.kind === 'failed' ? o.failure : o.kind === 'http-error' ? `http-${o.status}` : o.kind;
    bump(this.retryCauses, cause, 1);
  }

  dropped(constraint: string): void {
    bump(this.droppedLinks, constraint, 1);
  }

  toJSON(): Record<string, unknown> {
    return {
      pagesDone: this.pagesDone,
      pagesFetched: this.pagesFetched,
      pagesWithNodes: this.pagesWithNodes,
      nodes: this.nodes,
      newNodes: this.newNodes,
      offTopic: this.offTopic,
      offTopicDropped: this.offTopicDropped,
      newLinks: this.newLinks,
      blocks: this.blocks,
      hosts: this.hosts.size,
      outcomes: this.outcomes,
      blockRejections: this.blockRejections,
      failures: this.failures,
      droppedLinks: this.droppedLinks,
      linksCut: this.linksCut,
      pagesCut: this.pagesCut,
      pagesInPart: this.pagesInPart,
      leaseLost: this.leaseLost,
      retries: this.retries,
      retryCauses: this.retryCauses,
    };
  }
}

function bump(map: Record<string, number>, key: string, n: number): void {
  map[key] = (map[key] ?? 0) + n;
}
