import type { Link, Store } from '../store/store.js';
import type { FetcherOptions } from '../web/fetcher.js';
import type { PolitenessOptions } from '../web/politeness.js';
import { narrativeAction, pageOfFetch, type MetaContext, type NarrativeOptions } from '../walk/actions/narrative.js';
import { NarrativeThread } from '../walk/actions/narrative-thread.js';
import type { Constraint } from '../walk/constraints/constraint.js';
import { hosts, httpOnly, maxDepth, maxUrlLength, notBinaryExtension, sameHost } from '../walk/constraints/builtin.js';
import type { WalkOutcome } from '../walk/outcome.js';
import type { StrategyName } from '../walk/strategies/strategy.js';
import { HARVEST_DEFAULTS, type DepthFrom } from './defaults.js';
import { rebuildProfiles, type MetaTopic } from '../feed/profiles.js';
import { runActivity, type Activity, type WalkHooks, type WalkReport } from '../walk/walk.js';

/** Everything a harvest run is told; the CLI builds it from flags, tests and the demo directly. */
export interface HarvestOptions {
  strategy: StrategyName;
  concurrency: number;
  seed?: number;
  /**
   * Score a domain gains for a page that yielded a node: a fixed amount (thesis: 1), or
   * `relevance`, a point per node of the page linked to a meta word, less a point for a page with
   * none (see harvestReward).
   */
  reward: RewardSpec;
  maxDepth: number;
  /**
   * What `maxDepth` counts links from: `text` (default), a seed or the last page that paid the
   * wheel; `seed`, the seeds only, a hard bound on the walk.
   */
  depthFrom?: DepthFrom;
  maxPages?: number;
  maxPagesPerDomain?: number;
  /** Links stored from one page (DEFAULT_MAX_LINKS_PER_PAGE when not given). */
  maxLinksPerPage?: number;
  maxTimeMs?: number;
  /** Host names or `*.domain` patterns the walk stays in; empty means no host limit. */
  hosts?: string[];
  sameHost?: boolean;
  leaseMs: number;
  /** Retries of a transient failure, across runs (default 3). */
  maxRetries?: number;
  fetcher: FetcherOptions;
  politeness: PolitenessOptions;
  narrative: Omit<NarrativeOptions, 'robotsToken'>;
  /** The narrative action on a thread of its own (walk/actions/narrative-thread.ts): where a core is to spare. */
  actionThread?: boolean;
}

export type HarvestReport = WalkReport;
export type HarvestHooks = WalkHooks;

/** The walk's constraints in the order the user reads them; the set sorts them by cost once. */
export function harvestConstraints(opts: Pick<HarvestOptions, 'maxDepth' | 'hosts' | 'sameHost' | 'fetcher'>): Constraint[] {
  const cs: Constraint[] = [maxDepth(opts.maxDepth), httpOnly(), maxUrlLength(opts.fetcher.maxUrlLength ?? 2048), notBinaryExtension()];
  if (opts.hosts && opts.hosts.length > 0) cs.push(hosts(opts.hosts));
  if (opts.sameHost) cs.push(sameHost());
  return cs;
}

export type RewardSpec = number | 'relevance' | TopicRewardSpec;

/**
 * What a page earns by its topic: `share`, the share of its nodes linked to a meta word (0 to 1);
 * `nodes`, how many are; `weight`, the sum of each one's relevance (its strongest link weight).
 * `barren`: what a page with nothing on the topic (no node, or none linked) costs its domain.
 */
export interface TopicRewardSpec {
  topic: 'share' | 'nodes' | 'weight';
  barren?: number;
}

/**
 * What `--reward relevance` pays: a point per node on the topic, and a page with nothing on the
 * topic costs its domain a point (down to SCORE_FLOOR). On the focus bench this found the most
 * text on the topic: the share (0 to 1) kept the wheel nearly flat, and without the cost the hosts
 * that gave nothing kept their first point and drew pages as often as a new host.
 */
export const RELEVANCE_REWARD: Readonly<TopicRewardSpec> = { topic: 'nodes', barren: 1 };

/**
 * Thesis chapter 4: a page that yielded at least one narrative node adds `reward` to its domain's
 * score. With `relevance` (RELEVANCE_REWARD; see TopicRewardSpec) it is paid by its nodes on the
 * topic; a page reached from no search query has no topic to be measured by and earns the thesis's
 * full point. Pages not fetched (errors, robots, refusals) earn and cost nothing.
 */
export function harvestReward(outcome: WalkOutcome, reward: RewardSpec): number {
  if (outcome.kind !== 'harvested') return 0;
  if (typeof reward === 'number' || outcome.onTopic === undefined) return outcome.nodes === 0 ? 0 : typeof reward === 'number' ? reward : 1;
  const spec = reward === 'relevance' ? RELEVANCE_REWARD : reward;
  if (outcome.onTopic === 0) return spec.barren ? -spec.barren : 0;
  switch (spec.topic) {
    case 'share':
      return outcome.onTopic / outcome.nodes;
    case 'nodes':
      return outcome.onTopic;
    case 'weight':
      return outcome.topicWeight ?? 0;
  }
}

/**
 * The ANWC activity (thesis chapters 3-4): the narrative action on every page, with the meta words
 * of the link's search-query lineage and every meta word's topic profile (a node is linked to each
 * word it is relevant to), and the wheel's reward for a page that yielded nodes.
 */
export function harvestActivity(store: Store, opts: HarvestOptions, topics: MetaTopic[] = [], thread?: NarrativeThread): Activity {
  const metaOf = metaLineage(store, topics);
  return {
    name: 'harvest',
    constraints: harvestConstraints(opts),
    act: async (page, link, { token }) => {
      const meta = await metaOf(link);
      const narrative = { ...opts.narrative, robotsToken: token };
      const read = pageOfFetch(page);
      return thread ? thread.act(read, meta, narrative) : narrativeAction(read, meta, narrative);
    },
    reward: (o) => harvestReward(o, opts.reward),
    rewardResetsDepth: (opts.depthFrom ?? HARVEST_DEFAULTS.depthFrom) === 'text',
    ...(opts.narrative.order === 'relevance' ? { linkOrder: 'priority' as const } : {}),
  };
}

/**
 * The roulette walk from the seeded frontier with the narrative action. Resumes whatever frontier
 * the store holds; several processes may run it on one MySQL database.
 */
export async function harvest(store: Store, opts: HarvestOptions, hooks: HarvestHooks = {}, topics?: MetaTopic[]): Promise<HarvestReport> {
  // Unless the caller learned them for this run (once for all its workers), the profiles are
  // learned anew: the document frequencies count the store's text, grown since.
  const t = topics ?? (await rebuildProfiles(store));
  const thread = opts.actionThread ? new NarrativeThread() : undefined;
  try {
    return await runActivity(store, harvestActivity(store, opts, t, thread), opts, { ...opts }, hooks);
  } finally {
    await thread?.close();
  }
}

/** The meta words of a link's query lineage, cached per query: nodes found below a query carry its words. */
function metaLineage(store: Store, topics: MetaTopic[]): (link: Link) => Promise<MetaContext> {
  const cache = new Map<number, Promise<MetaContext>>();
  const none: MetaContext = { metaWordIds: [], metaStems: [], topics };
  return (link) => {
    if (link.queryId == null) return Promise.resolve(none);
    let p = cache.get(link.queryId);
    if (!p) {
      p = store.queryMetaWords(link.queryId).then((ws) => ({ metaWordIds: ws.map((w) => w.id), metaStems: ws.map((w) => w.stem), topics }));
      cache.set(link.queryId, p);
    }
    return p;
  };
}
