import { sha256 } from '../hash.js';
import { FullBands, toDomain, toMetaWord, toRun } from '../rows.js';
import type {
  AuditEntry, NodeChange, StoryFile,
  ClaimResult, CompletePageInput, CompletePageResult, HostClaim, WorkerInfo, Domain, DomainScore, DrawOptions, Link, LinkInput, LinkOrder, MarkupFileInput, MarkupFileRecord, MetaWord,
  MetaWordInfo, MetaWordInput, NearCandidate, NodeQuery, NodeStatus, Origin, ReplaceFileResult, RobotsEntry, Run, RunInput, SearchQueryInput, Store, WaitingRetries,
  MetaLinkInput, NodeLink, StoredProfile, StoredNode, StoredQuery, StoreSummary, TopDomains, UrlCheck,
} from '../store.js';
import { MysqlBandCache } from './bands.js';
import { KnownDomains } from '../known-domains.js';
import { all, one, run, transaction, type Conn, type Db } from './conn.js';
import { failedWhere, summaryQueries, toStoredQuery, toSummary, toWaitingRetries, WAITING_FIRST, WAITING_RETRIES } from '../summary.js';
import * as frontier from './frontier.js';
import * as nodes from './nodes.js';
import { openMysqlPool, type MysqlTarget } from './open.js';

const MYSQL_FAILURE_KEY =
  "CASE WHEN outcome_kind = 'http-error' THEN CONCAT('http-', JSON_UNQUOTE(JSON_EXTRACT(outcome_detail, '$.status'))) " +
  "ELSE JSON_UNQUOTE(JSON_EXTRACT(outcome_detail, '$.failure')) END";

/**
 * The Store on a MySQL/MariaDB database that several anwc processes may share. Writes run in
 * transactions on one pooled connection each (retried when InnoDB reports a deadlock); reads go
 * to the pool.
 */
export class MysqlStore implements Store {
  readonly kind = 'mysql' as const;
  /** Domain ids by host, as this process has seen them. */
  private readonly domainIds = new KnownDomains();

  /** A transaction that may have made domains was taken back: the ids it gave them are no one's. */
  private readonly forgetDomains = (): void => this.domainIds.clear();
  /** Band keys seen full: a node is not written under them (rows.ts, BAND_FANOUT). */
  private readonly fullBands = new FullBands();
  /** The band rows in memory for the near-copy search (bands.ts). */
  private readonly bands = new MysqlBandCache();

  private constructor(private readonly pool: Db) {}

  static async open(target: MysqlTarget, mustExist = false): Promise<MysqlStore> {
    return new MysqlStore(await openMysqlPool(target, mustExist));
  }

  async schemaVersion(): Promise<number> {
    return Number((await one(this.pool, 'SELECT MAX(version) AS v FROM schema_version'))?.v ?? 0);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async ensureMetaWords(words: MetaWordInput[]): Promise<MetaWord[]> {
    return transaction(this.pool, (c) => nodes.ensureMetaWords(c, words));
  }

  async metaWordByStem(stem: string): Promise<MetaWord | undefined> {
    const row = await one(this.pool, 'SELECT id, word, stem FROM meta_words WHERE stem = ?', [stem]);
    return row ? toMetaWord(row) : undefined;
  }

  async listMetaWords(opts: { neverSearched?: boolean } = {}): Promise<MetaWordInfo[]> {
    return nodes.listMetaWords(this.pool, opts.neverSearched ?? false);
  }

  async markupFile(path: string): Promise<MarkupFileRecord | undefined> {
    const r = await one(this.pool, 'SELECT id, path, content_hash, imported_at FROM markup_files WHERE path_hash = ?', [sha256(path)]);
    return r && { id: Number(r.id), path: String(r.path), contentHash: String(r.content_hash), importedAt: Number(r.imported_at) };
  }

  async replaceMarkupFile(file: MarkupFileInput, at = Date.now()): Promise<ReplaceFileResult> {
    return transaction(this.pool, (c) => nodes.replaceMarkupFile(c, file, at));
  }

  async saveProfiles(profiles: Omit<StoredProfile, 'builtAt'>[], at = Date.now()): Promise<void> {
    return transaction(this.pool, (c) => nodes.saveProfiles(c, profiles, at));
  }

  async addMetaLinks(links: MetaLinkInput[]): Promise<number> {
    return nodes.addMetaLinks(this.pool, links);
  }

  async profiles(): Promise<StoredProfile[]> {
    return nodes.profiles(this.pool);
  }

  async nodeLinks(nodeId: number): Promise<NodeLink[]> {
    return nodes.nodeLinks(this.pool, nodeId);
  }

  async node(id: number): Promise<StoredNode | undefined> {
    return (await nodes.loadNodes(this.pool, 'WHERE n.id = ?', [id]))[0];
  }

  async nodes(query: NodeQuery): Promise<StoredNode[]> {
    return nodes.queryNodes(this.pool, query);
  }

  async countNodesOfStem(stem: string, opts: DrawOptions = {}): Promise<Record<Origin, number>> {
    return nodes.countNodesOfStem(this.pool, stem, opts);
  }

  async weightsOfStem(stem: string, origin: Origin, opts: DrawOptions = {}): Promise<{ id: number; weight: number }[]> {
    return nodes.weightsOfStem(this.pool, stem, origin, opts);
  }

  async nodesSharingBands(signatures: number[][], limit: number): Promise<NearCandidate[][]> {
    return nodes.nodesSharingBands(this.pool, signatures, limit, this.fullBands, this.bands);
  }

  async nodeSources(): Promise<string[]> {
    return nodes.nodeSources(this.pool);
  }

  async setNodeStatus(ids: number[], status: NodeStatus, at = Date.now()): Promise<void> {
    await transaction(this.pool, (c) => nodes.setNodeStatus(c, ids, status, at));
  }

  async curateNode(id: number, change: NodeChange, who: string, at = Date.now()): Promise<StoredNode | undefined> {
    return transaction(this.pool, (c) => nodes.curateNode(c, id, change, who, at));
  }

  async nodeAudit(opts: { nodeId?: number; limit: number }): Promise<AuditEntry[]> {
    return nodes.nodeAudit(this.pool, opts);
  }

  async nodeTimes(limit: number): Promise<{ sourceUrl: string; createdAt: number }[]> {
    return nodes.nodeTimes(this.pool, limit);
  }

  async story(): Promise<StoryFile[]> {
    return nodes.story(this.pool);
  }

  async urlChecks(scope: string): Promise<UrlCheck[]> {
    return nodes.urlChecks(this.pool, scope);
  }

  async saveUrlChecks(scope: string, checks: UrlCheck[], replace: boolean): Promise<void> {
    await transaction(this.pool, (c) => nodes.saveUrlChecks(c, scope, checks, replace));
  }

  async recordSearch(q: SearchQueryInput): Promise<number> {
    return transaction(this.pool, (c) => insertQuery(c, q));
  }

  async recordSeeds(q: SearchQueryInput, links: Omit<LinkInput, 'queryId'>[]): Promise<{ queryId: number; newLinks: number }> {
    return transaction(this.pool, async (c) => {
      const queryId = await insertQuery(c, q);
      const newLinks = await frontier.addLinks(c, links.map((l) => ({ ...l, queryId })), q.at ?? Date.now(), this.domainIds);
      return { queryId, newLinks };
    }, this.forgetDomains);
  }

  async queryMetaWords(queryId: number): Promise<MetaWord[]> {
    return (await all(this.pool,
      'SELECT m.id, m.word, m.stem FROM query_meta qm JOIN meta_words m ON m.id = qm.meta_word_id WHERE qm.query_id = ? ORDER BY m.id',
      [queryId])).map(toMetaWord);
  }

  async addLinks(links: LinkInput[], at = Date.now()): Promise<number> {
    return transaction(this.pool, (c) => frontier.addLinks(c, links, at, this.domainIds), this.forgetDomains);
  }

  async link(id: number): Promise<Link | undefined> {
    return frontier.linkWhere(this.pool, 'l.id = ?', [id]);
  }

  async linkByUrl(url: string): Promise<Link | undefined> {
    return frontier.linkWhere(this.pool, 'l.url_hash = ?', [sha256(url)]);
  }

  async leaseNextLink(domainId: number, owner: string, leaseMs: number, now = Date.now(), order: LinkOrder = 'discovery'): Promise<Link | undefined> {
    return transaction(this.pool, (c) => frontier.leaseNextLink(c, domainId, owner, leaseMs, now, order));
  }

  async claimNextLink(domainId: number, owner: string, claim: HostClaim): Promise<ClaimResult> {
    return transaction(this.pool, (c) => frontier.claimNextLink(c, domainId, owner, claim));
  }

  async completePage(page: CompletePageInput): Promise<CompletePageResult> {
    return transaction(this.pool, (c) => frontier.completePage(c, page, this.domainIds, this.fullBands, this.bands), this.forgetDomains);
  }

  async heartbeat(owner: string, beat: { now: number; leaseMs: number; pages: number }): Promise<void> {
    await transaction(this.pool, (c) => frontier.heartbeat(c, owner, beat));
  }

  async workerStopped(owner: string, now = Date.now()): Promise<void> {
    await run(this.pool, 'UPDATE workers SET stopped_at = ? WHERE owner = ?', [now, owner]);
  }

  async liveWorkers(since: number): Promise<WorkerInfo[]> {
    return frontier.liveWorkers(this.pool, since);
  }

  async scoresSince(since: number): Promise<{ scores: DomainScore[]; latest: number }> {
    return frontier.scoresSince(this.pool, since);
  }

  async releaseExpiredLeases(now = Date.now()): Promise<number> {
    return transaction(this.pool, (c) => frontier.releaseExpiredLeases(c, now));
  }

  async leaseOwners(): Promise<string[]> {
    return frontier.leaseOwners(this.pool);
  }

  async releaseLeasesOf(owner: string): Promise<number> {
    return transaction(this.pool, (c) => frontier.releaseLeasesOf(c, owner));
  }

  async releaseLinks(owner: string, ids: number[]): Promise<number> {
    return transaction(this.pool, (c) => frontier.releaseLinks(c, owner, ids));
  }

  async nextDueAt(domainId: number): Promise<number | null> {
    return frontier.nextDueAt(this.pool, domainId);
  }

  async waitingRetries(now: number): Promise<WaitingRetries | null> {
    const count = await one(this.pool, WAITING_RETRIES, [now]);
    return toWaitingRetries(count, count?.at == null ? undefined : await one(this.pool, WAITING_FIRST, [now]));
  }

  async requeueRefused(): Promise<number> {
    return transaction(this.pool, (c) => frontier.requeueRefused(c));
  }

  async retryFailed(kinds?: string[]): Promise<number> {
    return transaction(this.pool, (c) => frontier.retryFailed(c, failedWhere(MYSQL_FAILURE_KEY, kinds)));
  }

  async domainsWithLinksAfter(afterLinkId: number): Promise<{ domains: DomainScore[]; newestLinkId: number }> {
    return frontier.domainsWithLinksAfter(this.pool, afterLinkId);
  }

  async domainsWithPending(now = Date.now()): Promise<DomainScore[]> {
    return frontier.domainsWithPending(this.pool, now);
  }

  async domain(host: string): Promise<Domain | undefined> {
    const r = await one(this.pool, 'SELECT * FROM domains WHERE host = ?', [host]);
    return r ? toDomain(r) : undefined;
  }

  async topDomains(limit: number): Promise<TopDomains> {
    const rows = await all(this.pool, 'SELECT * FROM domains ORDER BY score DESC, id LIMIT ?', [Math.max(0, Math.floor(limit))]);
    const total = await one(this.pool, 'SELECT COALESCE(SUM(score), 0) AS t FROM domains');
    return { domains: rows.map(toDomain), totalScore: Number(total?.t ?? 0) };
  }

  async setNextFetchAt(domainId: number, at: number): Promise<void> {
    await run(this.pool, 'UPDATE domains SET next_fetch_at = ? WHERE id = ?', [at, domainId]);
  }

  async saveRobots(origin: string, robots: unknown, expiresAt: number): Promise<void> {
    await run(this.pool,
      `INSERT INTO robots (origin, rules, expires_at) VALUES (?, ?, ?)
       ON DUPLICATE KEY UPDATE rules = VALUES(rules), expires_at = VALUES(expires_at)`,
      [origin, JSON.stringify(robots), expiresAt]);
  }

  async loadRobots(origin: string): Promise<RobotsEntry | undefined> {
    const r = await one(this.pool, 'SELECT rules, expires_at FROM robots WHERE origin = ?', [origin]);
    if (!r) return undefined;
    return { robots: JSON.parse(String(r.rules)), expiresAt: Number(r.expires_at) };
  }

  async summary(): Promise<StoreSummary> {
    const qs = summaryQueries(MYSQL_FAILURE_KEY);
    const entries = await Promise.all(Object.entries(qs).map(async ([k, sql]) => [k, await all(this.pool, sql)] as const));
    return toSummary(Object.fromEntries(entries) as Parameters<typeof toSummary>[0]);
  }

  async searchQuery(id: number): Promise<StoredQuery | undefined> {
    const r = await one(this.pool, 'SELECT * FROM search_queries WHERE id = ?', [id]);
    return r ? toStoredQuery(r) : undefined;
  }

  async runs(limit: number): Promise<Run[]> {
    return (await all(this.pool, 'SELECT * FROM runs ORDER BY id DESC LIMIT ?', [Math.max(0, Math.floor(limit))])).map(toRun);
  }

  async startRun(r: RunInput): Promise<number> {
    return (await run(this.pool, 'INSERT INTO runs (params, seed, started_at) VALUES (?, ?, ?)',
      [JSON.stringify(r.params), r.seed, r.at ?? Date.now()])).insertId;
  }

  async endRun(id: number, stats: Record<string, unknown>, at = Date.now()): Promise<void> {
    await run(this.pool, 'UPDATE runs SET stats = ?, ended_at = ? WHERE id = ?', [JSON.stringify(stats), at, id]);
  }

  async run(id: number): Promise<Run | undefined> {
    const r = await one(this.pool, 'SELECT * FROM runs WHERE id = ?', [id]);
    return r ? toRun(r) : undefined;
  }

  async getSetting(key: string): Promise<string | undefined> {
    const r = await one(this.pool, 'SELECT `value` FROM settings WHERE `key` = ?', [key]);
    return r ? String(r.value) : undefined;
  }

  async setSetting(key: string, value: string): Promise<void> {
    await run(this.pool, 'INSERT INTO settings (`key`, `value`) VALUES (?, ?) ON DUPLICATE KEY UPDATE `value` = VALUES(`value`)', [key, value]);
  }
}

async function insertQuery(c: Conn, q: SearchQueryInput): Promise<number> {
  const id = (await run(c, 'INSERT INTO search_queries (provider, terms, results, created_at) VALUES (?, ?, ?, ?)',
    [q.provider, q.terms, JSON.stringify(q.results), q.at ?? Date.now()])).insertId;
  const metas = [...new Set(q.metaWordIds)];
  if (metas.length > 0) await run(c, 'INSERT INTO query_meta (query_id, meta_word_id) VALUES ?', [metas.map((m) => [id, m])]);
  return id;
}
