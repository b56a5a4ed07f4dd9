import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harvest, type HarvestOptions } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/open.js';
import { stem } from '../src/text/stem.js';
import type { StrategyName } from '../src/walk/strategies/strategy.js';
import { TOPIC } from './graded-web.js';
import { harvestOptions, type ChildWeb } from './harvest.js';
import { ci95, mean } from './stats.js';
import { rawSql } from '../test/support/db.js';

/**
 * One walk of a graded web (bench/graded-web.ts) as the wheel and focus benches run it: a fresh
 * SQLite file, the meta word TOPIC, search results tied to a query for it, a page budget, one fetch
 * slot, delay 0; then what the walk fetched and found, read back from the stored outcomes.
 */

export interface Walk {
  name: string;
  strategy: StrategyName;
  over?: Partial<HarvestOptions>;
}

export interface Tally {
  fetched: number;
  /** Pages that yielded a node. */
  withNodes: number;
  /** Nodes, over every page. */
  allNodes: number;
  /** Pages that yielded a node linked to the meta word. */
  onTopic: number;
  /** Nodes linked to the meta word, over every page. */
  onTopicNodes: number;
  /** Pages fetched (harvested) per host name. */
  byHost: Map<string, number>;
}

export interface WalkSetup {
  budget: number;
  depth?: number;
  /** The search results (default: the web's own seeds). */
  seeds?: string[];
  /** Host patterns the walk stays in (default: the whole web). */
  hosts?: string[];
}

export async function walkOnce(web: ChildWeb, walk: Walk, seed: number, setup: WalkSetup): Promise<Tally> {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-bench-graded-'));
  const seeds = setup.seeds ?? web.seeds;
  try {
    const file = join(dir, 'walk.sqlite');
    const store = await openStore(`sqlite:${file}`);
    let report;
    try {
      const [word] = await store.ensureMetaWords([{ word: TOPIC, stem: stem(TOPIC) }]);
      await store.recordSeeds(
        { provider: 'file', terms: TOPIC, results: seeds, metaWordIds: [word!.id] },
        seeds.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })),
      );
      const base = harvestOptions(web, walk.strategy, { seed, concurrency: 1, maxPages: setup.budget });
      report = await harvest(store, {
        ...base,
        ...(setup.depth === undefined ? {} : { maxDepth: setup.depth }),
        ...(setup.hosts === undefined ? {} : { hosts: setup.hosts }),
        ...walk.over,
      });
    } finally {
      await store.close();
    }
    return { ...(await readTally(`sqlite:${file}`)), fetched: report.stats.pagesFetched };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the walk fetched and found, from the stored outcomes (the same SQL on both stores). */
export async function readTally(url: string): Promise<Tally & { barren: number }> {
  const harvested = "l.outcome_kind = 'harvested'";
  const [pages] = await rawSql(url, `SELECT COUNT(*) AS fetched, COALESCE(SUM(CASE WHEN JSON_EXTRACT(l.outcome_detail, '$.nodes') > 0 THEN 1 ELSE 0 END), 0) AS withNodes,
      COALESCE(SUM(CASE WHEN JSON_EXTRACT(l.outcome_detail, '$.onTopic') > 0 THEN 1 ELSE 0 END), 0) AS onTopic,
      COALESCE(SUM(JSON_EXTRACT(l.outcome_detail, '$.onTopic')), 0) AS onTopicNodes,
      COALESCE(SUM(JSON_EXTRACT(l.outcome_detail, '$.nodes')), 0) AS allNodes FROM links l WHERE ${harvested}`);
  const hosts = await rawSql(url, `SELECT d.host AS host, COUNT(*) AS n, SUM(CASE WHEN JSON_EXTRACT(l.outcome_detail, '$.nodes') > 0 THEN 1 ELSE 0 END) AS rich
      FROM links l JOIN domains d ON d.id = l.domain_id WHERE ${harvested} GROUP BY d.host`);
  return {
    fetched: Number(pages!.fetched), withNodes: Number(pages!.withNodes), allNodes: Number(pages!.allNodes), onTopic: Number(pages!.onTopic), onTopicNodes: Number(pages!.onTopicNodes),
    byHost: new Map(hosts.map((h) => [String(h.host), Number(h.n)])),
    barren: hosts.filter((h) => Number(h.rich) === 0).reduce((n, h) => n + Number(h.n), 0),
  };
}

/** Per page fetched: pages with a node, nodes, pages with an on-topic node, on-topic nodes. */
export const perPage = {
  nodes: (t: Tally) => t.withNodes / Math.max(1, t.fetched),
  allNodes: (t: Tally) => t.allNodes / Math.max(1, t.fetched),
  topical: (t: Tally) => t.onTopic / Math.max(1, t.fetched),
  topicNodes: (t: Tally) => t.onTopicNodes / Math.max(1, t.fetched),
};

/** Mean ± half its 95 % confidence interval (Student's t). */
export const interval = (xs: number[], digits = 2) => `${mean(xs).toFixed(digits)} ± ${ci95(xs).toFixed(digits)}`;

/** Each seed's figure over the baseline's on the same web (paired). */
export const paired = (ts: Tally[], base: Tally[], f: (t: Tally) => number) => ts.map((t, s) => f(t) / Math.max(1e-9, f(base[s]!)));
