import type { MetaWord, Store } from '../store/store.js';
import { stem } from '../text/stem.js';
import { hostOf, normalizeUrl } from '../web/url.js';
import { SearchError, type SearchProvider, type SearchResult } from './provider.js';
import { metaSetKey, normalizeMetaSet, queryText, widenings, wordKey, wordWeights } from './query.js';

/**
 * Seeding (thesis 3.2.1 and 4.1): for each distinct meta set of the author's nodes, one AND
 * query; its ranked URLs are stored with the query, and enter the frontier tied to it, so that
 * the nodes the crawler finds below a seed carry the query's meta words.
 *
 * Incremental, as the thesis's import table works: "when the search engine starts, it checks
 * this table to see if there are new semantic words and initializes the search root URLs for
 * the new keywords". A meta set is asked again only when it holds a word never searched with
 * this provider; `all` asks every set again.
 *
 * The steps, in order: plan (which sets to ask) → ask (one query, widened while short) →
 * record (query, results and links in one transaction, then the provider's ledger). A SearchError stops the
 * run between two meta sets' worth of writes: every set finished before it stays stored, and
 * the next run asks for the rest.
 */
export interface SeedOptions {
  provider: SearchProvider;
  store: Store;
  /** URLs wanted per meta set (the thesis's ten). */
  perQuery: number;
  /** Ask every meta set again, not only those with a word new to this provider. */
  all?: boolean;
  signal?: AbortSignal;
  onEvent?: (event: SeedEvent) => void;
}

export interface MetaSet {
  words: MetaWord[];
}

export type SeedEvent =
  | { type: 'plan'; metaSets: number; toAsk: number; upToDate: number }
  | {
      type: 'query';
      /** 1-based position of the meta set among those asked in this run. */
      index: number;
      total: number;
      terms: string;
      /** True for a widened query (fewer words than the meta set). */
      widened: boolean;
      /** URLs this query added to the meta set's seeds (new to the set). */
      urls: number;
      /** Of those, links the frontier did not hold yet. */
      newLinks: number;
      /** Answered from an identical query earlier in this run, with no request sent. */
      reused: boolean;
    }
  | { type: 'stopped'; error: SearchError; index: number; total: number };

export interface SeedSummary {
  provider: string;
  /** Distinct meta sets the store (or the provider's own input) holds. */
  metaSets: number;
  /** Of those, sets asked in this run … */
  asked: number;
  /** … and sets left alone because every word was searched with this provider before. */
  upToDate: number;
  /** Stored queries, widened ones included. */
  queries: number;
  /** Seed URLs across all asked sets. */
  urls: number;
  /** Links new to the frontier. */
  newLinks: number;
  /** Meta sets that ended with fewer URLs than asked for, even after widening. */
  short: number;
  /** The search error that ended the run early; what was stored before it is kept. */
  stoppedBy?: SearchError;
}

/** The setting that holds, per provider, the ids of meta words searched with it. */
export function ledgerKey(provider: string): string {
  return `search.searched.${provider}`;
}

export async function seed(opts: SeedOptions): Promise<SeedSummary> {
  const { provider, store } = opts;
  const emit = opts.onEvent ?? (() => {});
  const sets = await candidateSets(provider, store);
  const searched = await readLedger(store, provider.name);
  const toAsk = opts.all ? sets : sets.filter((s) => s.words.some((w) => !searched.has(w.id)));
  const summary: SeedSummary = {
    provider: provider.name,
    metaSets: sets.length,
    asked: 0,
    upToDate: sets.length - toAsk.length,
    queries: 0,
    urls: 0,
    newLinks: 0,
    short: 0,
  };
  emit({ type: 'plan', metaSets: sets.length, toAsk: toAsk.length, upToDate: summary.upToDate });

  const weight = wordWeights(sets.map((s) => s.words.map((w) => w.word)));
  const answered = new Map<string, SearchResult[]>();
  const ask = async (words: string[]): Promise<{ results: SearchResult[]; reused: boolean }> => {
    const key = metaSetKey(words);
    const earlier = answered.get(key);
    if (earlier) return { results: earlier, reused: true };
    const results = await provider.search({ words }, { count: opts.perQuery, signal: opts.signal });
    answered.set(key, results);
    return { results, reused: false };
  };

  for (const [i, set] of toAsk.entries()) {
    const index = i + 1;
    const words = set.words.map((w) => w.word);
    const metaWordIds = set.words.map((w) => w.id);
    const have = new Set<string>();
    // A provider that lists its own URLs per set has nothing to widen into.
    const steps = [words, ...(provider.ownQueries ? [] : widenings(words, weight))];
    try {
      for (const [s, asked] of steps.entries()) {
        if (have.size >= opts.perQuery) break;
        const { results, reused } = await ask(asked);
        const urls = seedUrls(results).filter((u) => !have.has(u)).slice(0, opts.perQuery - have.size);
        for (const u of urls) have.add(u);
        const terms = queryText(asked);
        // A widened query's pages answer only the words it asked: they carry those, not the whole set.
        const askedKeys = new Set(asked.map(wordKey));
        const askedIds = set.words.filter((w) => askedKeys.has(wordKey(w.word))).map((w) => w.id);
        const { newLinks } = await store.recordSeeds(
          { provider: provider.name, terms, results: urls, metaWordIds: askedIds },
          urls.map((url) => ({ url, host: hostOf(url), depth: 0 })),
        );
        summary.queries++;
        summary.urls += urls.length;
        summary.newLinks += newLinks;
        emit({ type: 'query', index, total: toAsk.length, terms, widened: s > 0, urls: urls.length, newLinks, reused });
      }
    } catch (err) {
      if (!(err instanceof SearchError)) throw err;
      summary.stoppedBy = err;
      emit({ type: 'stopped', error: err, index, total: toAsk.length });
      break;
    }
    // A seed file's sets hold what the user listed; only a search can come back short.
    if (!provider.ownQueries && have.size < opts.perQuery) summary.short++;
    summary.asked++;
    for (const id of metaWordIds) searched.add(id);
    await writeLedger(store, provider.name, searched);
  }
  return summary;
}

/**
 * The meta sets to seed: the provider's own (a seed file names them), or the distinct meta
 * sets of the author's nodes. Distinct by stem, so "storm, sea" and "Seas, storms" are one query.
 */
export async function candidateSets(provider: SearchProvider, store: Store): Promise<MetaSet[]> {
  const out = new Map<string, MetaSet>();
  const add = (words: MetaWord[]) => {
    if (words.length === 0) return;
    // In the order the words entered the story (id order), which the store keeps and a node's
    // link rows do not: queries and widening ties then come out the same on every run.
    const sorted = [...words].sort((a, b) => a.id - b.id);
    const key = sorted.map((w) => w.id).join(',');
    if (!out.has(key)) out.set(key, { words: sorted });
  };
  if (provider.ownQueries) {
    for (const q of provider.ownQueries()) {
      const words = normalizeMetaSet(q.words);
      add(await store.ensureMetaWords(words.map((word) => ({ word, stem: stem(word) }))));
    }
    return [...out.values()];
  }
  const PAGE = 500;
  for (let afterId: number | undefined = undefined; ; ) {
    const nodes = await store.nodes({ origin: 'author', afterId, limit: PAGE });
    for (const n of nodes) add(uniqueById(n.metaWords));
    if (nodes.length < PAGE) break;
    afterId = nodes[nodes.length - 1]!.id;
  }
  return [...out.values()];
}

/** Normalized seed URLs, in rank order; a URL the frontier could never hold is left out. */
function seedUrls(results: SearchResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    const n = normalizeUrl(r.url);
    if (n.ok && !out.includes(n.url)) out.push(n.url);
  }
  return out;
}

function uniqueById(words: MetaWord[]): MetaWord[] {
  const seen = new Set<number>();
  return words.filter((w) => (seen.has(w.id) ? false : (seen.add(w.id), true)));
}

async function readLedger(store: Store, provider: string): Promise<Set<number>> {
  const raw = await store.getSetting(ledgerKey(provider));
  if (!raw) return new Set();
  try {
    const ids = JSON.parse(raw) as unknown;
    return new Set(Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : []);
  } catch {
    // A damaged ledger only costs queries asked again, never lost seeds.
    return new Set();
  }
}

async function writeLedger(store: Store, provider: string, ids: Set<number>): Promise<void> {
  await store.setSetting(ledgerKey(provider), JSON.stringify([...ids].sort((a, b) => a - b)));
}
