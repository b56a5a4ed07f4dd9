import type Database from 'better-sqlite3';
import { sha256 } from '../hash.js';
import { FullBands, toDomain, toRun, toMetaWord, type Row } from '../rows.js';
import type {
  AuditEntry, NodeChange, StoryFile,
  ClaimResult, CompletePageInput, CompletePageResult, HostClaim, WorkerInfo, Domain, DomainScore, DrawOptions, Link, LinkInput, LinkOrder, MarkupFileInput, MarkupFileRecord, MetaWord,
  MetaWordInfo, MetaWordInput, NearCandidate, NodeQuery, NodeStatus, Origin, ReplaceFileResult, RobotsEntry, Run, RunInput, SearchQueryInput, Store, WaitingRetries,
  MetaLinkInput, NodeLink, StoredProfile, StoredNode, StoredQuery, StoreSummary, TopDomains, UrlCheck,
} from '../store.js';
import { GroupCommit } from '../group-commit.js';
import { KnownDomains } from '../known-domains.js';
import { failedWhere, summaryQueries, toStoredQuery, toSummary, toWaitingRetries, WAITING_FIRST, WAITING_RETRIES } from '../summary.js';
import * as frontier from './frontier.js';
import * as nodes from './nodes.js';
import { openSqliteDb, sqliteWriteError, type SqliteOptions } from './open.js';
import { BandCache } from './bands.js';

export const SQLITE_FAILURE_KEY =
  "CASE WHEN outcome_kind = 'http-error' THEN 'http-' || json_extract(outcome_detail, '$.status') ELSE json_extract(outcome_detail, '$.failure') END";

/**
 * The Store on one SQLite file through better-sqlite3. Its calls are synchronous, and each
 * write runs in a synchronous IMMEDIATE transaction: an async transaction would hold SQLite's
 * one write lock across awaits, where a second connection in the same process would wait on it
 * with the event loop blocked.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;

  /** Band keys seen full: a node is not written under them (rows.ts, BAND_FANOUT). */
  private readonly fullBands = new FullBands();

  /** The band rows in memory for the near-copy search (bands.ts). */
  private readonly bands = new BandCache();

  /** Domain ids by host, as this connection has seen them. */
  private readonly domainIds = new KnownDomains();

  /**
   * Runs a function in a transaction of the kind asked for. Made once: better-sqlite3 builds four
   * wrapped functions for each transaction() it is given, which cost 1 % of a crawl's CPU.
   */
  private readonly inTransaction: Record<'immediate' | 'deferred', <T>(fn: () => T) => T>;

  private constructor(private readonly db: Database.Database) {
    // better-sqlite3's types lose a generic function's result type; the function passes it through.
    this.inTransaction = db.transaction((fn: () => unknown) => fn()) as unknown as SqliteStore['inTransaction'];
  }

  static open(path: string, opts: SqliteOptions = {}): SqliteStore {
    return new SqliteStore(openSqliteDb(path, opts));
  }

  /**
   * One IMMEDIATE transaction. Another writer holding the file makes SQLite wait busy_timeout
   * (10 s) and then say SQLITE_BUSY: tried again twice more, then the store is called unavailable.
   */
  private write<T>(fn: () => T): T {
    for (let attempt = 1; ; attempt++) {
      try {
        return this.inTransaction.immediate(fn);
      } catch (err) {
        // The near-copy search may have read the band keys of nodes the rollback took back, and their
        // ids go to the next nodes written; the same holds for the ids of domains it made.
        this.bands.forget();
        this.domainIds.clear();
        const code = (err as { code?: string }).code ?? '';
        const busy = code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
        if (!busy || attempt >= 3) throw sqliteWriteError(err, this.db.name);
      }
    }
  }

  async schemaVersion(): Promise<number> {
    return Number((this.db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as Row).v ?? 0);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  async ensureMetaWords(words: MetaWordInput[]): Promise<MetaWord[]> {
    return this.write(() => nodes.ensureMetaWords(this.db, words));
  }

  async metaWordByStem(stem: string): Promise<MetaWord | undefined> {
    const row = this.db.prepare('SELECT id, word, stem FROM meta_words WHERE stem = ?').get(stem);
    return row ? toMetaWord(row as Row) : undefined;
  }

  async listMetaWords(opts: { neverSearched?: boolean } = {}): Promise<MetaWordInfo[]> {
    return nodes.listMetaWords(this.db, opts.neverSearched ?? false);
  }

  async markupFile(path: string): Promise<MarkupFileRecord | undefined> {
    const r = this.db.prepare('SELECT id, path, content_hash, imported_at FROM markup_files WHERE path = ?').get(path) as Row | undefined;
    return r && { id: Number(r.id), path: String(r.path), contentHash: String(r.content_hash), importedAt: Number(r.imported_at) };
  }

  async replaceMarkupFile(file: MarkupFileInput, at = Date.now()): Promise<ReplaceFileResult> {
    return this.write(() => nodes.replaceMarkupFile(this.db, file, at));
  }

  async saveProfiles(profiles: Omit<StoredProfile, 'builtAt'>[], at = Date.now()): Promise<void> {
    return this.write(() => nodes.saveProfiles(this.db, profiles, at));
  }

  async addMetaLinks(links: MetaLinkInput[]): Promise<number> {
    return this.write(() => nodes.addMetaLinks(this.db, links));
  }

  async profiles(): Promise<StoredProfile[]> {
    return nodes.profiles(this.db);
  }

  async nodeLinks(nodeId: number): Promise<NodeLink[]> {
    return nodes.nodeLinks(this.db, nodeId);
  }

  async node(id: number): Promise<StoredNode | undefined> {
    return nodes.loadNodes(this.db, 'WHERE n.id = ?', [id])[0];
  }

  async nodes(query: NodeQuery): Promise<StoredNode[]> {
    return nodes.queryNodes(this.db, query);
  }

  async countNodesOfStem(stem: string, opts: DrawOptions = {}): Promise<Record<Origin, number>> {
    return nodes.countNodesOfStem(this.db, stem, opts);
  }

  async weightsOfStem(stem: string, origin: Origin, opts: DrawOptions = {}): Promise<{ id: number; weight: number }[]> {
    return nodes.weightsOfStem(this.db, stem, origin, opts);
  }

  /**
   * In one read transaction: the band keys brought up to date and the candidates' texts are read
   * from one snapshot, and the WAL's read lock is taken once, not once a statement.
   */
  async nodesSharingBands(signatures: number[][], limit: number): Promise<NearCandidate[][]> {
    return this.inTransaction.deferred(() => nodes.nodesSharingBands(this.db, signatures, limit, this.fullBands, this.bands));
  }

  async nodeSources(): Promise<string[]> {
    return nodes.nodeSources(this.db);
  }

  async setNodeStatus(ids: number[], status: NodeStatus, at = Date.now()): Promise<void> {
    this.write(() => nodes.setNodeStatus(this.db, ids, status, at));
  }

  async curateNode(id: number, change: NodeChange, who: string, at = Date.now()): Promise<StoredNode | undefined> {
    return this.write(() => nodes.curateNode(this.db, id, change, who, at));
  }

  async nodeAudit(opts: { nodeId?: number; limit: number }): Promise<AuditEntry[]> {
    return nodes.nodeAudit(this.db, opts);
  }

  async nodeTimes(limit: number): Promise<{ sourceUrl: string; createdAt: number }[]> {
    return nodes.nodeTimes(this.db, limit);
  }

  async story(): Promise<StoryFile[]> {
    return nodes.story(this.db);
  }

  async urlChecks(scope: string): Promise<UrlCheck[]> {
    return nodes.urlChecks(this.db, scope);
  }

  async saveUrlChecks(scope: string, checks: UrlCheck[], replace: boolean): Promise<void> {
    this.write(() => nodes.saveUrlChecks(this.db, scope, checks, replace));
  }

  async recordSearch(q: SearchQueryInput): Promise<number> {
    return this.write(() => this.insertQuery(q));
  }

  async recordSeeds(q: SearchQueryInput, links: Omit<LinkInput, 'queryId'>[]): Promise<{ queryId: number; newLinks: number }> {
    return this.write(() => {
      const queryId = this.insertQuery(q);
      const newLinks = frontier.addLinks(this.db, links.map((l) => ({ ...l, queryId })), q.at ?? Date.now(), this.domainIds);
      return { queryId, newLinks };
    });
  }

  private insertQuery(q: SearchQueryInput): number {
    const id = Number(this.db.prepare('INSERT INTO search_queries (provider, terms, results, created_at) VALUES (?, ?, ?, ?)')
      .run(q.provider, q.terms, JSON.stringify(q.results), q.at ?? Date.now()).lastInsertRowid);
    const link = this.db.prepare('INSERT OR IGNORE INTO query_meta (query_id, meta_word_id) VALUES (?, ?)');
    for (const m of q.metaWordIds) link.run(id, m);
    return id;
  }

  async queryMetaWords(queryId: number): Promise<MetaWord[]> {
    return (this.db.prepare(
      'SELECT m.id, m.word, m.stem FROM query_meta qm JOIN meta_words m ON m.id = qm.meta_word_id WHERE qm.query_id = ? ORDER BY m.id',
    ).all(queryId) as Row[]).map(toMetaWord);
  }

  async addLinks(links: LinkInput[], at = Date.now()): Promise<number> {
    return this.write(() => frontier.addLinks(this.db, links, at, this.domainIds));
  }

  async link(id: number): Promise<Link | undefined> {
    return frontier.linkWhere(this.db, 'l.id = ?', [id]);
  }

  async linkByUrl(url: string): Promise<Link | undefined> {
    return frontier.linkWhere(this.db, 'l.url_hash = ?', [sha256(url)]);
  }

  async leaseNextLink(domainId: number, owner: string, leaseMs: number, now = Date.now(), order: LinkOrder = 'discovery'): Promise<Link | undefined> {
    return this.write(() => frontier.leaseNextLink(this.db, domainId, owner, leaseMs, now, order));
  }

  /**
   * The claims a walker makes at once (pages came back together and freed their slots) are taken
   * in one transaction, each as it would be alone: a transaction's locks and commit cost as much
   * as a claim's statements, and claims of one moment write some of the same pages (the leases
   * index, the domains). They are made in one turn, so they meet before a microtask runs.
   */
  private readonly claims = new GroupCommit<{ domainId: number; owner: string; claim: HostClaim }, ClaimResult>(
    (claims) => this.write(() => claims.map((c) => frontier.claimNextLink(this.db, c.domainId, c.owner, c.claim))),
    queueMicrotask,
  );

  claimNextLink(domainId: number, owner: string, claim: HostClaim): Promise<ClaimResult> {
    return this.claims.submit({ domainId, owner, claim });
  }

  private readonly completions = new GroupCommit<CompletePageInput, CompletePageResult>(
    (pages) => this.write(() => pages.map((p) => frontier.completePage(this.db, p, this.domainIds, this.fullBands, this.bands))),
  );

  completePage(page: CompletePageInput): Promise<CompletePageResult> {
    return this.completions.submit(page);
  }

  async heartbeat(owner: string, beat: { now: number; leaseMs: number; pages: number }): Promise<void> {
    this.write(() => frontier.heartbeat(this.db, owner, beat));
  }

  async workerStopped(owner: string, now = Date.now()): Promise<void> {
    this.write(() => this.db.prepare('UPDATE workers SET stopped_at = ? WHERE owner = ?').run(now, owner));
  }

  async liveWorkers(since: number): Promise<WorkerInfo[]> {
    return frontier.liveWorkers(this.db, since);
  }

  async scoresSince(since: number): Promise<{ scores: DomainScore[]; latest: number }> {
    return frontier.scoresSince(this.db, since);
  }

  async releaseExpiredLeases(now = Date.now()): Promise<number> {
    return this.write(() => frontier.releaseExpiredLeases(this.db, now));
  }

  async leaseOwners(): Promise<string[]> {
    return frontier.leaseOwners(this.db);
  }

  async releaseLeasesOf(owner: string): Promise<number> {
    return this.write(() => frontier.releaseLeasesOf(this.db, owner));
  }

  async releaseLinks(owner: string, ids: number[]): Promise<number> {
    return this.write(() => frontier.releaseLinks(this.db, owner, ids));
  }

  async nextDueAt(domainId: number): Promise<number | null> {
    return frontier.nextDueAt(this.db, domainId);
  }

  async waitingRetries(now: number): Promise<WaitingRetries | null> {
    const count = this.db.prepare(WAITING_RETRIES).get(now) as Row | undefined;
    return toWaitingRetries(count, count?.at == null ? undefined : (this.db.prepare(WAITING_FIRST).get(now) as Row | undefined));
  }

  async requeueRefused(): Promise<number> {
    return this.write(() => frontier.requeueRefused(this.db));
  }

  async retryFailed(kinds?: string[]): Promise<number> {
    return this.write(() => frontier.retryFailed(this.db, failedWhere(SQLITE_FAILURE_KEY, kinds)));
  }

  async domainsWithLinksAfter(afterLinkId: number): Promise<{ domains: DomainScore[]; newestLinkId: number }> {
    return frontier.domainsWithLinksAfter(this.db, afterLinkId);
  }

  async domainsWithPending(now = Date.now()): Promise<DomainScore[]> {
    return frontier.domainsWithPending(this.db, now);
  }

  async domain(host: string): Promise<Domain | undefined> {
    const r = this.db.prepare('SELECT * FROM domains WHERE host = ?').get(host);
    return r ? toDomain(r as Row) : undefined;
  }

  async topDomains(limit: number): Promise<TopDomains> {
    const rows = this.db.prepare('SELECT * FROM domains ORDER BY score DESC, id LIMIT ?').all(Math.max(0, Math.floor(limit))) as Row[];
    const total = this.db.prepare('SELECT COALESCE(SUM(score), 0) AS t FROM domains').get() as Row;
    return { domains: rows.map(toDomain), totalScore: Number(total.t) };
  }

  async setNextFetchAt(domainId: number, at: number): Promise<void> {
    this.write(() => this.db.prepare('UPDATE domains SET next_fetch_at = ? WHERE id = ?').run(at, domainId));
  }

  async saveRobots(origin: string, robots: unknown, expiresAt: number): Promise<void> {
    this.write(() => {
      this.db.prepare('INSERT INTO robots (origin, rules, expires_at) VALUES (?, ?, ?) ON CONFLICT (origin) DO UPDATE SET rules = excluded.rules, expires_at = excluded.expires_at')
        .run(origin, JSON.stringify(robots), expiresAt);
    });
  }

  async loadRobots(origin: string): Promise<RobotsEntry | undefined> {
    const r = this.db.prepare('SELECT rules, expires_at FROM robots WHERE origin = ?').get(origin) as Row | undefined;
    if (!r) return undefined;
    return { robots: JSON.parse(String(r.rules)), expiresAt: Number(r.expires_at) };
  }

  async summary(): Promise<StoreSummary> {
    const qs = summaryQueries(SQLITE_FAILURE_KEY);
    const rows = Object.fromEntries(Object.entries(qs).map(([k, sql]) => [k, this.db.prepare(sql).all() as Row[]]));
    return toSummary(rows as Parameters<typeof toSummary>[0]);
  }

  async searchQuery(id: number): Promise<StoredQuery | undefined> {
    const r = this.db.prepare('SELECT * FROM search_queries WHERE id = ?').get(id) as Row | undefined;
    return r ? toStoredQuery(r) : undefined;
  }

  async runs(limit: number): Promise<Run[]> {
    return (this.db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ?').all(Math.max(0, Math.floor(limit))) as Row[]).map(toRun);
  }

  async startRun(run: RunInput): Promise<number> {
    return Number(this.write(() => this.db.prepare('INSERT INTO runs (params, seed, started_at) VALUES (?, ?, ?)')
      .run(JSON.stringify(run.params), run.seed, run.at ?? Date.now()).lastInsertRowid));
  }

  async endRun(id: number, stats: Record<string, unknown>, at = Date.now()): Promise<void> {
    this.write(() => this.db.prepare('UPDATE runs SET stats = ?, ended_at = ? WHERE id = ?').run(JSON.stringify(stats), at, id));
  }

  async run(id: number): Promise<Run | undefined> {
    const r = this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id);
    return r ? toRun(r as Row) : undefined;
  }

  async getSetting(key: string): Promise<string | undefined> {
    const r = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as Row | undefined;
    return r ? String(r.value) : undefined;
  }

  async setSetting(key: string, value: string): Promise<void> {
    this.write(() => this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, value));
  }
}
