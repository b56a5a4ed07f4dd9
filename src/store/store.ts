/**
 * The Store contract: everything anwc keeps between runs, behind one async interface that a
 * SQLite file and a shared MySQL/MariaDB database both implement (practice 9: this file imports
 * nothing of its implementations). Both pass test/store/contract.test.ts.
 *
 * The data model follows the thesis (chapter 5, Figure 10): meta words and narrative nodes are
 * many-to-many. A meta word is identified by its Porter stem, because the engine looks nodes up
 * by the stem of the word a reader clicked. A node's text is unique per origin, so a paragraph
 * met twice is one node with two sets of links, never two nodes.
 *
 * Link lifecycle (the crawl frontier, shared by every process on one database):
 *
 *   addLinks ──▶ pending ──leaseNextLink──▶ leased ──completePage──▶ done | failed | excluded
 *                 ▲  ▲                         │  │
 *                 │  └── lease expired ────────┘  │  (releaseExpiredLeases, or the next lease call)
 *                 └───── retry (transient) ───────┘  completePage with status 'pending': attempts + 1
 *                                                    (unless not attempted), not leased again before notBefore
 *
 * A failed link comes back with retryFailed; a link refused by the run's own settings (outcome
 * 'refused': address policy, scope) comes back at the next run's start with requeueRefused, so a
 * run with other settings walks it.
 *
 * A lease carries an owner and an expiry; a process that dies leaves leases that expire, and its
 * pages are fetched again by someone else. completePage is one transaction, so a crash loses at
 * most the pages in flight and never duplicates a node.
 *
 * Times are milliseconds since the epoch (numbers), the same on both backends.
 */

export type Origin = 'author' | 'crawler';
export const ORIGINS: readonly Origin[] = ['author', 'crawler'];

export type LinkStatus = 'pending' | 'leased' | 'done' | 'failed' | 'excluded';

/**
 * Which of a domain's leasable links comes out first: the oldest (breadth-first), the newest
 * (depth-first), or the highest priority (best-first; ties in discovery order).
 */
export type LinkOrder = 'discovery' | 'newest' | 'priority';

/** Longest meta word (and stem) the store keeps: MySQL's indexed VARCHAR(191) in utf8mb4. */
export const META_WORD_MAX = 191;

/** The lowest score a penalty leaves a domain: its slice shrinks, but it is never ruled out. */
export const SCORE_FLOOR = 0.05;

export interface MetaWordInput {
  word: string;
  stem: string;
}

export interface MetaWord {
  id: number;
  /** The first spelling seen for this stem; later spellings share the row. */
  word: string;
  stem: string;
}

export interface MetaWordInfo extends MetaWord {
  nodes: number;
  /** When a search query last used this word, or null when it has never been searched. */
  lastSearchedAt: number | null;
}

/**
 * What the last revalidation of a crawler node's source page found (`anwc maintain --nodes`): ok
 * (never checked, or its text is still there), changed (the page no longer holds the text), gone
 * (404, 410, or the host is no more). Nodes are kept whatever it says; `pick` skips gone ones.
 */
export type NodeStatus = 'ok' | 'changed' | 'gone';
export const NODE_STATUSES: readonly NodeStatus[] = ['ok', 'changed', 'gone'];

/**
 * The author's verdict on a crawler node (anwc serve): unreviewed until judged; a rejected node
 * is kept, for the record, and never drawn.
 */
export type Review = 'unreviewed' | 'approved' | 'rejected';
export const REVIEWS: readonly Review[] = ['unreviewed', 'approved', 'rejected'];

export interface StoredNode {
  id: number;
  origin: Origin;
  text: string;
  /**
   * An author node's sentences as written. A crawler node's are its text split (exportSentences):
   * it is stored without them, though a store's older nodes and an author's edit may have some.
   */
  sentences: string[];
  sourceUrl: string | null;
  relevance: number | null;
  createdAt: number;
  metaWords: MetaWord[];
  status: NodeStatus;
  /** When the source page was last revalidated, or null. */
  checkedAt: number | null;
  review: Review;
}

/** An author's change to a node: each field given is set, in one transaction with its audit line. */
export interface NodeChange {
  review?: Review;
  /**
   * New text; a text another node of the origin already has is refused (TextTakenError). A crawler
   * node's new band keys replace its old ones, so near-copies are found of the text it now holds.
   */
  text?: { text: string; sentences: string[]; bands?: number[] };
  /** The node's meta words, all of them (each linked with weight 1). */
  metaWordIds?: number[];
}

/** One change an author made to a node, with the value before and after (JSON for meta words). */
export interface AuditEntry {
  id: number;
  nodeId: number;
  at: number;
  who: string;
  action: 'review' | 'text' | 'meta';
  before: string | null;
  after: string | null;
}

/** An edited text that another node of the same origin already holds. */
export class TextTakenError extends Error {
  constructor(readonly nodeId: number, readonly takenBy: number) {
    super(`node ${takenBy} already has this text`);
  }
}

/** A stored crawler node the near-copy search compares a new one with. */
export interface NearCandidate {
  id: number;
  /** SHA-256 of its text (hash.ts): a new node of the very same text is the store's to link, not a near-copy. */
  textHash: string;
  /**
   * Its word 3-shingles (NodeInput.shingles): those stored with it, or, for a node stored without
   * them (before they were kept, or edited since), its text split by the store as it reads it.
   */
  shingles: Uint32Array;
}

/** The author's story as imported: each markup file's sections with their nodes in order. */
export interface StoryFile {
  path: string;
  sections: { name: string | null; nodeIds: number[] }[];
}

/**
 * What a crawler node's link to a meta word rests on (text/profile.ts): the meta word itself in
 * its text or only in its page's headings, the cosine with the word's topic profile, the profile
 * terms shared, and the score that became the link's weight.
 */
export interface LinkEvidence {
  score: number;
  literal: 'text' | 'heading' | null;
  similarity: number;
  terms: string[];
}

/** A link of a stored node to a meta word, by evidence. */
export interface MetaLinkInput {
  nodeId: number;
  metaWordId: number;
  weight: number;
  evidence: LinkEvidence;
}

/** A meta word's topic profile as stored: learned from the author (text/profile.ts). */
export interface StoredProfile {
  metaWordId: number;
  /** Term (Porter stem) → weight, unit length. */
  terms: Record<string, number>;
  /** The terms that are words around the meta word in the markup. */
  anchors: string[];
  /** Author nodes it was learned from. */
  sources: number;
  builtAt: number;
}

/** One of a node's meta links with its weight and, for a crawler node linked by evidence, why. */
export interface NodeLink {
  metaWord: MetaWord;
  weight: number;
  evidence: LinkEvidence | null;
}

/** A node as a page or a markup file gives it; its meta words are already stored. */
export interface NodeInput {
  text: string;
  /**
   * An author's sentences, kept as written. A crawler node is one paragraph whose sentences are
   * its text split (feed/formats.ts, exportSentences), so none are sent or stored for it: they
   * doubled its row and its messages between the threads.
   */
  sentences?: string[];
  relevance?: number | null;
  metaWordIds: number[];
  /** How strongly the node speaks of each of its meta words (same order); 1 each when absent. */
  metaWeights?: number[];
  /** What each link rests on (same order), kept for `anwc why-node`. */
  metaEvidence?: (LinkEvidence | null)[];
  /** Crawler nodes: MinHash band keys (src/text/minhash.ts, band i at index i), kept to find near-copies later. */
  bands?: number[];
  /** The word 3-shingles the bands were made of (text/minhash.ts, Shingles), when the caller has them: the near-copy check compares them and need not split the text again, now or when the node comes up as a candidate. */
  shingles?: Uint32Array;
  /**
   * A near-copy of this stored node (completePage finds those of a node with band keys; a caller
   * may name one): no new node is made; the stored one gains this page as a source and the meta links.
   */
  copyOf?: { id: number; similarity: number };
}

export interface MarkupNodeInput {
  text: string;
  sentences: string[];
  metaWords: MetaWordInput[];
}

export interface MarkupSectionInput {
  /** The section's `\id`, when it has one. */
  name: string | null;
  /** The section's other attributes, kept so that an export can show them. */
  attributes: Record<string, string | null>;
  nodes: MarkupNodeInput[];
}

export interface MarkupFileInput {
  /** Absolute path: the file's identity. */
  path: string;
  contentHash: string;
  sections: MarkupSectionInput[];
}

export interface MarkupFileRecord {
  id: number;
  path: string;
  contentHash: string;
  importedAt: number;
}

export interface ReplaceFileResult {
  fileId: number;
  nodes: number;
  /** Nodes whose text was not stored before (per origin). */
  newNodes: number;
  /** Nodes of the file's previous version that no file refers to any more, now deleted. */
  removedNodes: number;
  /**
   * Nodes of the file whose text the database holds already as a crawler node (an export of the
   * harvest imported back): not stored a second time, as author nodes.
   */
  crawlerCopies: number;
  metaWords: MetaWord[];
}

export interface NodeQuery {
  origin?: Origin;
  /** Only nodes linked to the meta word with this stem. */
  stem?: string;
  /** Paging: nodes with an id above this one, in id order. */
  afterId?: number;
  limit?: number;
  /** Only the nodes taken from this page. */
  sourceUrl?: string;
  /** Only nodes whose text holds this string (case-insensitive for ASCII letters). */
  contains?: string;
  /** Only nodes taken from pages of this host. */
  host?: string;
  status?: NodeStatus;
  review?: Review;
  /** Only nodes stored in this time range (epoch ms, both ends included): e.g. during one run. */
  createdFrom?: number;
  createdTo?: number;
}

/** Which nodes the engine may draw: by default every node but the gone ones. */
export interface DrawOptions {
  withGone?: boolean;
}

/**
 * What the last check of a URL found, kept per scope (a maintenance task, or the sources of the
 * crawler nodes) so that the next run can say what changed and ask with the validators.
 */
export interface UrlCheck {
  url: string;
  /** ok, moved, broken, skipped, unchecked (maintenance), or a node status. */
  state: string;
  status: number | null;
  detail: string | null;
  etag: string | null;
  lastModified: string | null;
  checkedAt: number;
}

export interface SearchQueryInput {
  provider: string;
  terms: string;
  /** Result URLs, best first. */
  results: string[];
  metaWordIds: number[];
  at?: number;
}

export interface LinkInput {
  /** Already normalized by the web module; its hash is the link's identity. */
  url: string;
  host: string;
  depth: number;
  queryId?: number | null;
  referrerId?: number | null;
  /** Best-first walks: higher comes out first within the domain (default 0). */
  priority?: number;
}

export interface Link {
  id: number;
  url: string;
  domainId: number;
  host: string;
  depth: number;
  status: LinkStatus;
  queryId: number | null;
  referrerId: number | null;
  /** The URL of the page the link was found on; null for a seed. */
  referrerUrl: string | null;
  etag: string | null;
  lastModified: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  outcome: LinkOutcome | null;
  discoveredAt: number;
  /** Fetches that ended in a transient failure so far (the link went back to pending each time). */
  attempts: number;
  /** Not leased before this time (epoch ms): the retry's backoff or Retry-After. */
  notBefore: number | null;
  priority: number;
}

/** What became of a link (practice 3); `kind` is the walker's vocabulary, `detail` its facts. */
export interface LinkOutcome {
  kind: string;
  detail?: Record<string, unknown>;
}

export interface CompletePageInput {
  linkId: number;
  /** When given, the page is stored only if this owner still holds the lease. */
  owner?: string;
  /** 'pending' puts the link back for a retry: its attempts grow by one and it waits until `notBefore`. */
  status?: Extract<LinkStatus, 'pending' | 'done' | 'failed' | 'excluded'>;
  notBefore?: number | null;
  /**
   * False when a link goes back 'pending' without having been tried (robots.txt of its origin
   * could not be had): it waits until `notBefore` with its attempts as they were. True by default.
   */
  attempted?: boolean;
  outcome: LinkOutcome;
  nodes: NodeInput[];
  newLinks: LinkInput[];
  /**
   * Added to the domain's roulette score (thesis: 1 when the page yielded a node). A negative one
   * (--reward relevance, a page with nothing on the topic) takes the score no lower than
   * SCORE_FLOOR, nor lower than it already was.
   */
  domainReward: number;
  /** The host's next fetch time as this page's answer set it (delay, Retry-After, backoff): kept if later than the stored one. */
  hostNextAt?: number;
  etag?: string | null;
  lastModified?: string | null;
  at?: number;
}

export interface HostClaim {
  leaseMs: number;
  now: number;
  order: LinkOrder;
  /** Leases of the host that may be live at once, across processes (--per-host). */
  perHost: number;
  /** The host's delay between requests (--delay, or its Crawl-delay). */
  gapMs: number;
  /**
   * Links to lease at once (1 when not given): the walker takes a host's next few in one claim
   * and starts them one by one under its own politeness. Held, they count as the host's live
   * leases, so no other process asks the host meanwhile.
   */
  count?: number;
}

/** Links waiting for a retry (or for their robots.txt), and when the first of them falls due (epoch ms). */
export interface WaitingRetries {
  links: number;
  nextAt: number;
  /** The link due first, and the outcome that put it back (toStored's shape): what the wait is for. */
  first?: { url: string; kind: string; detail: Record<string, unknown> };
}

/** `busyUntil`: other processes hold the host's slots; its next fetch time, when they will have asked again at the earliest. */
export type ClaimResult = { links: Link[] } | { waitUntil: number } | { busyUntil: number } | { none: true };

export interface WorkerInfo {
  owner: string;
  startedAt: number;
  heartbeatAt: number;
  pages: number;
  leases: number;
}

export interface CompletePageResult {
  /** False when another owner holds the lease now; nothing was written. */
  applied: boolean;
  nodeIds: number[];
  newNodes: number;
  newLinks: number;
}

export interface DomainScore {
  id: number;
  host: string;
  score: number;
}

export interface Domain extends DomainScore {
  pages: number;
  nodes: number;
  errors: number;
  nextFetchAt: number | null;
}

export interface TopDomains {
  /** Highest score first. */
  domains: Domain[];
  /** Sum of every domain's score, for shares of the wheel. */
  totalScore: number;
}

/** Counts over the whole database, for `anwc stats` (the same facts whichever process asks). */
export interface StoreSummary {
  nodes: Record<Origin, number>;
  metaWords: number;
  queries: number;
  domains: number;
  /** Links by status: pending, leased, done, failed, excluded. */
  links: Record<string, number>;
  /** Links by the kind of their outcome (harvested, robots, failed, …). */
  outcomes: Record<string, number>;
  /** Failed links by failure kind or HTTP status. */
  failures: Record<string, number>;
  /**
   * Links that needed more than one try, whatever became of them. The links still waiting for one
   * are waitingRetries', which counts only those not due yet.
   */
  retries: { retried: number };
  /** Crawler nodes by what their last revalidation found. */
  nodeStatus: Record<NodeStatus, number>;
  /** Crawler nodes by the author's review in the studio. */
  reviews: Record<Review, number>;
  /** Pages where a stored crawler paragraph was met again: the same text, or a near-copy. */
  copies: { exact: number; near: number };
  /** Crawler nodes linked to no meta word: no click can draw them. */
  offTopic: number;
}

export interface StoredQuery {
  id: number;
  provider: string;
  terms: string;
  results: string[];
  createdAt: number;
}

export interface RobotsEntry {
  robots: unknown;
  expiresAt: number;
}

export interface RunInput {
  params: Record<string, unknown>;
  seed: number | null;
  at?: number;
}

export interface Run {
  id: number;
  params: Record<string, unknown>;
  seed: number | null;
  stats: Record<string, unknown> | null;
  startedAt: number;
  endedAt: number | null;
}

export interface Store {
  readonly kind: 'sqlite' | 'mysql';
  /** The schema version now in the database. */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;

  /** Stores meta words by stem (a stem seen before keeps its first spelling); same order back. */
  ensureMetaWords(words: MetaWordInput[]): Promise<MetaWord[]>;
  metaWordByStem(stem: string): Promise<MetaWord | undefined>;
  /** With `neverSearched`, only words no search query has used yet (the seeds still to plant). */
  listMetaWords(opts?: { neverSearched?: boolean }): Promise<MetaWordInfo[]>;

  markupFile(path: string): Promise<MarkupFileRecord | undefined>;
  /**
   * Stores a markup file's author nodes in one transaction, replacing the nodes of its previous
   * version. A node another file also holds survives; its meta links are the union of both.
   */
  replaceMarkupFile(file: MarkupFileInput, at?: number): Promise<ReplaceFileResult>;

  /** Replaces every topic profile with these, in one transaction. */
  saveProfiles(profiles: Omit<StoredProfile, 'builtAt'>[], at?: number): Promise<void>;
  /** The stored topic profiles, by meta word id. */
  profiles(): Promise<StoredProfile[]>;
  /**
   * Links stored nodes to meta words by new evidence (the profiles changed); a link a node has
   * already is kept as it is. How many were added.
   */
  addMetaLinks(links: MetaLinkInput[]): Promise<number>;
  /** A node's meta links, highest weight first, with the evidence each was made on. */
  nodeLinks(nodeId: number): Promise<NodeLink[]>;

  node(id: number): Promise<StoredNode | undefined>;
  nodes(query: NodeQuery): Promise<StoredNode[]>;
  /** How many nodes of each origin the meta word with this stem links to. */
  countNodesOfStem(stem: string, opts?: DrawOptions): Promise<Record<Origin, number>>;
  /** The nodes of an origin linked to a stem, each with the weight of its link, in id order: what a draw chooses from. */
  weightsOfStem(stem: string, origin: Origin, opts?: DrawOptions): Promise<{ id: number; weight: number }[]>;
  /**
   * For each signature, up to `limit` crawler nodes that share band keys with it, most keys shared
   * first, with their text's hash and shingles (NearCandidate). Only the newest BAND_FANOUT nodes of each band key are looked at, so a
   * key that thousands of paragraphs share costs no more than a rare one.
   */
  nodesSharingBands(signatures: number[][], limit: number): Promise<NearCandidate[][]>;
  /** The distinct source pages of the crawler nodes, in URL order. */
  nodeSources(): Promise<string[]>;
  setNodeStatus(ids: number[], status: NodeStatus, at?: number): Promise<void>;
  /** Applies an author's change to a node and records it in the audit; the node as it is now, or undefined when there is none. */
  curateNode(id: number, change: NodeChange, who: string, at?: number): Promise<StoredNode | undefined>;
  /** The newest audit entries first, of one node or of all. */
  nodeAudit(opts: { nodeId?: number; limit: number }): Promise<AuditEntry[]>;
  /** The imported markup files in path order, each with its sections and their nodes in order. */
  story(): Promise<StoryFile[]>;
  /** The newest `limit` crawler nodes' source pages and times, newest first: what the studio charts over time. */
  nodeTimes(limit: number): Promise<{ sourceUrl: string; createdAt: number }[]>;
  /** The last checks kept for a scope. */
  urlChecks(scope: string): Promise<UrlCheck[]>;
  /** Keeps these checks for the scope; `replace` drops the scope's others first (a whole run's results). */
  saveUrlChecks(scope: string, checks: UrlCheck[], replace: boolean): Promise<void>;

  recordSearch(query: SearchQueryInput): Promise<number>;
  /**
   * A search query and its seed links in one transaction (each link tied to the query), so a
   * crash never leaves a query without its seeds or seeds without their lineage.
   */
  recordSeeds(query: SearchQueryInput, links: Omit<LinkInput, 'queryId'>[]): Promise<{ queryId: number; newLinks: number }>;
  /** The meta words a search query was made for: the words of the nodes found below it (thesis 5.1). */
  queryMetaWords(queryId: number): Promise<MetaWord[]>;

  /** Inserts links not seen before (by URL hash), creating their domains; returns how many were new. */
  addLinks(links: LinkInput[], at?: number): Promise<number>;
  link(id: number): Promise<Link | undefined>;
  linkByUrl(url: string): Promise<Link | undefined>;
  /**
   * Atomically hands the domain's first pending link (in `order`, discovery order by default) to
   * `owner` until now + leaseMs. A link whose lease expired counts as pending. Undefined when
   * none is left.
   */
  leaseNextLink(domainId: number, owner: string, leaseMs: number, now?: number, order?: LinkOrder): Promise<Link | undefined>;
  /**
   * leaseNextLink under the host's politeness shared by every process on the database, in one
   * transaction: the domain's host must be due (its next fetch time passed) and hold fewer than
   * `perHost` live leases; then its next link is leased and the host's next fetch time set
   * `gapMs` ahead. Otherwise says when to ask again (`waitUntil`), that the host is busy, or that
   * nothing is left.
   */
  claimNextLink(domainId: number, owner: string, claim: HostClaim): Promise<ClaimResult>;
  /**
   * Stores a page's answer in one transaction: its nodes, new links, outcome and its domain's
   * reward. A node with band keys that is a near-copy of a stored crawler node, or of an earlier
   * node of the page, is linked to it or dropped (near-copies.ts), as the pages stored before it see.
   */
  completePage(page: CompletePageInput): Promise<CompletePageResult>;
  /**
   * Registers the worker or renews its registration, and extends its leases to now + leaseMs:
   * a live worker keeps its links however long a page takes; a dead one's come back a lease later.
   */
  heartbeat(owner: string, beat: { now: number; leaseMs: number; pages: number }): Promise<void>;
  /** The worker has stopped: it is no longer listed among the live ones. */
  workerStopped(owner: string, now?: number): Promise<void>;
  /** Workers whose heart beat since `since`, with the leases they hold. */
  liveWorkers(since: number): Promise<WorkerInfo[]>;
  /** Domains whose score changed at or after `since` (epoch ms), with the time of the newest change among them (the next call's `since`). */
  scoresSince(since: number): Promise<{ scores: DomainScore[]; latest: number }>;
  /** Returns leases that ran out to pending; how many. */
  releaseExpiredLeases(now?: number): Promise<number>;
  /** Who holds leases now (host:pid:random owners), so a starting process can free a dead one's. */
  leaseOwners(): Promise<string[]>;
  /** The owner's leases back to pending at once (it stopped, or it is known dead); how many. */
  releaseLeasesOf(owner: string): Promise<number>;
  /** These links' leases back to pending, where owner holds them (a claim's links it did not start); how many. */
  releaseLinks(owner: string, ids: number[]): Promise<number>;
  /** When the domain's earliest waiting retry is due, if it has pending links that all wait. */
  nextDueAt(domainId: number): Promise<number | null>;
  /**
   * The links, of every domain and process, that wait for a retry (or for their robots.txt) not
   * due at `now`: how many, and when the first falls due; null when none waits. A scan of the
   * links: asked by a walk that has been idle a while, not on its hot path.
   */
  waitingRetries(now: number): Promise<WaitingRetries | null>;
  /** Links refused by a run's own settings (outcome 'refused') back to pending; how many. */
  requeueRefused(): Promise<number>;
  /**
   * Failed links back to pending with their attempts reset; only those whose failure kind (or
   * `http-NNN`, or `5xx`/`4xx`) is in `kinds` when given. How many.
   */
  retryFailed(kinds?: string[]): Promise<number>;
  /** Domains with a link that can be leased now (pending, or leased with an expired lease). */
  domainsWithPending(now?: number): Promise<DomainScore[]>;
  /**
   * The domains given pending links after link `afterLinkId` (ids only grow; a Galera cluster
   * interleaves them over its nodes, so a link may come late with a lower id), and the newest link
   * id, to pass next time (read first; Number.MAX_SAFE_INTEGER reads it alone).
   */
  domainsWithLinksAfter(afterLinkId: number): Promise<{ domains: DomainScore[]; newestLinkId: number }>;
  domain(host: string): Promise<Domain | undefined>;
  /** The domains with the highest roulette scores, for run summaries. */
  topDomains(limit: number): Promise<TopDomains>;
  setNextFetchAt(domainId: number, at: number): Promise<void>;

  /**
   * Keeps an origin's robots.txt rules (`https://example.org:8443`, as URL.origin writes it) until
   * `expiresAt`: robots.txt speaks for one scheme, host and port (RFC 9309 §2.3), not for the domain.
   */
  saveRobots(origin: string, robots: unknown, expiresAt: number): Promise<void>;
  /**
   * The origin's last robots rules with their expiry, expired or not (the reader judges): an
   * expired entry still says how many times in a row robots.txt could not be had, so the wait
   * before the next try grows across runs. Undefined when there are none.
   */
  loadRobots(origin: string): Promise<RobotsEntry | undefined>;

  summary(): Promise<StoreSummary>;
  searchQuery(id: number): Promise<StoredQuery | undefined>;
  /** The most recent runs, newest first. */
  runs(limit: number): Promise<Run[]>;

  startRun(run: RunInput): Promise<number>;
  endRun(id: number, stats: Record<string, unknown>, at?: number): Promise<void>;
  run(id: number): Promise<Run | undefined>;

  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;
}
