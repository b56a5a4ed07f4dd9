import type Database from 'better-sqlite3';
import { sha256 } from '../hash.js';
import { counterDeltas, firstInOrder, LINK_COLUMNS, linkOrderSql, toDomainScore, toLink, toWorker, type FullBands, type Row } from '../rows.js';
import { SCORE_FLOOR } from '../store.js';
import type { ClaimResult, CompletePageInput, CompletePageResult, DomainScore, HostClaim, Link, LinkInput, LinkOrder, WorkerInfo } from '../store.js';
import type { BandCache } from './bands.js';
import type { KnownDomains } from '../known-domains.js';
import { withNearCopies } from '../near-copies.js';
import { insertNodes, nodesSharingBands } from './nodes.js';

/**
 * The crawl frontier on SQLite: links, domains, leases. SQLite has one writer at a time, so a
 * write transaction taken IMMEDIATE is already the lock that MySQL gets from SKIP LOCKED.
 */

/** The ids of hosts' domains, made where missing; the ids already `known` are not read again. */
function domainIds(db: Database.Database, hosts: string[], known: KnownDomains): Map<string, number> {
  const out = new Map<string, number>();
  for (const h of new Set(hosts)) {
    let id = known.get(h);
    if (id === undefined) {
      db.prepare('INSERT OR IGNORE INTO domains (host) VALUES (?)').run(h);
      id = Number((db.prepare('SELECT id FROM domains WHERE host = ?').get(h) as Row).id);
      known.set(h, id);
    }
    out.set(h, id);
  }
  return out;
}

export function addLinks(db: Database.Database, links: LinkInput[], at: number, known: KnownDomains): number {
  if (links.length === 0) return 0;
  const domains = domainIds(db, links.map((l) => l.host), known);
  const insert = db.prepare(
    `INSERT OR IGNORE INTO links (url, url_hash, domain_id, depth, query_id, referrer_id, discovered_at, priority)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let added = 0;
  for (const l of links) {
    added += insert.run(l.url, sha256(l.url), domains.get(l.host)!, l.depth, l.queryId ?? null, l.referrerId ?? null, at, l.priority ?? 0).changes;
  }
  return added;
}

export function linkWhere(db: Database.Database, where: string, params: unknown[]): Link | undefined {
  return linksWhere(db, where, params)[0];
}

function linksWhere(db: Database.Database, where: string, params: unknown[]): Link[] {
  return (db.prepare(`SELECT ${LINK_COLUMNS} FROM links l JOIN domains d ON d.id = l.domain_id WHERE ${where}`).all(...params) as Row[]).map(toLink);
}

/** The statements that find a host's next links (each takes the domain id, now and how many); bench/crawl.ts prints their plans. */
export function leaseProbes(order: LinkOrder): { pending: string; expired: string } {
  const by = linkOrderSql(order);
  return {
    pending: `SELECT id, priority FROM links WHERE domain_id = ? AND status = 'pending' AND (not_before IS NULL OR not_before <= ?) ORDER BY ${by} LIMIT ?`,
    expired: `SELECT id, priority FROM links WHERE domain_id = ? AND status = 'leased' AND lease_expires_at <= ? ORDER BY ${by} LIMIT ?`,
  };
}

export const LIVE_LEASES = `SELECT COUNT(*) AS n FROM links WHERE domain_id = ? AND status = 'leased' AND lease_expires_at > ?`;

/** The domain's first `count` leasable links in `order`, leased to owner. */
function leaseLinks(
  db: Database.Database, domainId: number, owner: string, leaseMs: number, now: number, order: LinkOrder, count: number,
): Link[] {
  // Two probes, each an index seek to the head of its queue: one query with an OR over the
  // statuses read every link of the host, done ones included, and sorted them (a page's cost grew
  // with the host's size).
  const probes = leaseProbes(order);
  const pending = db.prepare(probes.pending).all(domainId, now, count) as Row[];
  const expired = db.prepare(probes.expired).all(domainId, now, count) as Row[];
  const ids = firstInOrder([...pending, ...expired], order, count).map((r) => Number(r.id));
  if (ids.length === 0) return [];
  const json = JSON.stringify(ids);
  db.prepare(`UPDATE links SET status = 'leased', lease_owner = ?, lease_expires_at = ? WHERE id IN (SELECT value FROM json_each(?))`).run(owner, now + leaseMs, json);
  const byId = new Map(linksWhere(db, 'l.id IN (SELECT value FROM json_each(?))', [json]).map((l) => [l.id, l]));
  return ids.map((id) => byId.get(id)!);
}

export function leaseNextLink(
  db: Database.Database, domainId: number, owner: string, leaseMs: number, now: number, order: LinkOrder,
): Link | undefined {
  return leaseLinks(db, domainId, owner, leaseMs, now, order, 1)[0];
}

/** See Store.claimNextLink; the caller holds an IMMEDIATE transaction, so claims of all processes are serialised. */
export function claimNextLink(db: Database.Database, domainId: number, owner: string, c: HostClaim): ClaimResult {
  const dom = db.prepare('SELECT next_fetch_at FROM domains WHERE id = ?').get(domainId) as Row | undefined;
  if (!dom) return { none: true };
  if (dom.next_fetch_at != null && Number(dom.next_fetch_at) > c.now) return { waitUntil: Number(dom.next_fetch_at) };
  const live = db.prepare(LIVE_LEASES).get(domainId, c.now) as Row;
  if (Number(live.n) >= c.perHost) return { busyUntil: Number(dom.next_fetch_at ?? c.now) };
  const links = leaseLinks(db, domainId, owner, c.leaseMs, c.now, c.order, Math.max(1, c.count ?? 1));
  if (links.length === 0) return { none: true };
  db.prepare('UPDATE domains SET next_fetch_at = ? WHERE id = ?').run(c.now + c.gapMs, domainId);
  return { links };
}

/** Leases of owner's links back to pending, those of links it took but did not start; how many. */
export function releaseLinks(db: Database.Database, owner: string, ids: number[]): number {
  return db.prepare(
    `UPDATE links SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL
     WHERE id IN (SELECT value FROM json_each(?)) AND status = 'leased' AND lease_owner = ?`,
  ).run(JSON.stringify(ids), owner).changes;
}

export function heartbeat(db: Database.Database, owner: string, b: { now: number; leaseMs: number; pages: number }): void {
  db.prepare(
    `INSERT INTO workers (owner, started_at, heartbeat_at, pages) VALUES (?, ?, ?, ?)
     ON CONFLICT (owner) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, pages = excluded.pages, stopped_at = NULL`,
  ).run(owner, b.now, b.now, b.pages);
  db.prepare(`UPDATE links SET lease_expires_at = ? WHERE status = 'leased' AND lease_owner = ?`).run(b.now + b.leaseMs, owner);
}

export function liveWorkers(db: Database.Database, since: number): WorkerInfo[] {
  const rows = db.prepare(
    `SELECT w.*, (SELECT COUNT(*) FROM links l WHERE l.status = 'leased' AND l.lease_owner = w.owner) AS leases
     FROM workers w WHERE w.stopped_at IS NULL AND w.heartbeat_at >= ? ORDER BY w.started_at, w.owner`,
  ).all(since) as Row[];
  return rows.map(toWorker);
}

export function scoresSince(db: Database.Database, since: number): { scores: DomainScore[]; latest: number } {
  const rows = db.prepare('SELECT id, host, score, score_at FROM domains WHERE score_at >= ? ORDER BY score_at').all(since) as Row[];
  return { scores: rows.map(toDomainScore), latest: rows.length === 0 ? since : Number(rows[rows.length - 1]!.score_at) };
}

export function completePage(db: Database.Database, p: CompletePageInput, known: KnownDomains, full: FullBands, bands: BandCache): CompletePageResult {
  const at = p.at ?? Date.now();
  const link = db.prepare('SELECT url, domain_id, depth, lease_owner FROM links WHERE id = ?').get(p.linkId) as Row | undefined;
  if (!link) throw new Error(`completePage: no link ${p.linkId}`);
  if (p.owner !== undefined && link.lease_owner !== p.owner) return { applied: false, nodeIds: [], newNodes: 0, newLinks: 0 };

  const marked = withNearCopies(p.nodes, (signatures, limit) => nodesSharingBands(db, signatures, limit, full, bands));
  const nodes = insertNodes(db, 'crawler', marked, String(link.url), at, full, bands);
  const newLinks = addLinks(db, p.newLinks, at, known);
  const status = p.status ?? 'done';
  const retry = status === 'pending' ? 1 : 0;
  const tried = retry && p.attempted !== false ? 1 : 0;
  db.prepare(
    `UPDATE links SET status = ?, outcome_kind = ?, outcome_detail = ?, etag = COALESCE(?, etag),
       last_modified = COALESCE(?, last_modified), lease_owner = NULL, lease_expires_at = NULL, completed_at = ?,
       attempts = attempts + ?, not_before = ?
     WHERE id = ?`,
  ).run(status, p.outcome.kind, p.outcome.detail ? JSON.stringify(p.outcome.detail) : null, p.etag ?? null,
    p.lastModified ?? null, retry ? null : at, tried, retry ? (p.notBefore ?? null) : null, p.linkId);
  const d = counterDeltas(status);
  db.prepare(
    `UPDATE domains SET score = MAX(MIN(score, ${SCORE_FLOOR}), score + ?), pages = pages + ?, nodes = nodes + ?, errors = errors + ?,
       score_at = CASE WHEN ? <> 0 THEN ? ELSE score_at END, next_fetch_at = COALESCE(MAX(next_fetch_at, ?), ?, next_fetch_at) WHERE id = ?`,
  ).run(p.domainReward, d.pages, new Set(nodes.ids).size, d.errors, p.domainReward, at, p.hostNextAt ?? null, p.hostNextAt ?? null, link.domain_id);
  return { applied: true, nodeIds: nodes.ids, newNodes: nodes.newNodes, newLinks };
}

export function releaseExpiredLeases(db: Database.Database, now: number): number {
  return db.prepare(
    `UPDATE links SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL
     WHERE status = 'leased' AND lease_expires_at <= ?`,
  ).run(now).changes;
}

export function domainsWithPending(db: Database.Database, now: number): DomainScore[] {
  const rows = db.prepare(
    `SELECT d.id, d.host, d.score FROM domains d
     WHERE EXISTS (SELECT 1 FROM links l WHERE l.domain_id = d.id AND l.status = 'pending')
        OR EXISTS (SELECT 1 FROM links l WHERE l.domain_id = d.id AND l.status = 'leased' AND l.lease_expires_at <= ?)
     ORDER BY d.id`,
  ).all(now) as Row[];
  return rows.map(toDomainScore);
}

/**
 * The domains given pending links after link `afterLinkId` (links.id only grows), and the newest
 * link id: how a process learns of the work other processes found without scanning every domain.
 */
export function domainsWithLinksAfter(db: Database.Database, afterLinkId: number): { domains: DomainScore[]; newestLinkId: number } {
  const newest = db.prepare('SELECT MAX(id) AS id FROM links').get() as Row;
  const rows = db.prepare(
    `SELECT d.id, d.host, d.score, x.pending FROM
       (SELECT domain_id, SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending FROM links WHERE id > ? GROUP BY domain_id) x
     JOIN domains d ON d.id = x.domain_id ORDER BY d.id`,
  ).all(afterLinkId) as Row[];
  return { domains: rows.filter((r) => Number(r.pending) > 0).map(toDomainScore), newestLinkId: Number(newest.id ?? 0) };
}

export function nextDueAt(db: Database.Database, domainId: number): number | null {
  const row = db.prepare(`SELECT MIN(not_before) AS at FROM links WHERE domain_id = ? AND status = 'pending'`).get(domainId) as Row;
  return row.at == null ? null : Number(row.at);
}

export function requeueRefused(db: Database.Database): number {
  return db.prepare(`UPDATE links SET status = 'pending', not_before = NULL WHERE status = 'excluded' AND outcome_kind = 'refused'`).run().changes;
}

export function retryFailed(db: Database.Database, where: { sql: string; params: string[] }): number {
  return db.prepare(`UPDATE links SET status = 'pending', attempts = 0, not_before = NULL WHERE ${where.sql}`).run(...where.params).changes;
}

export function leaseOwners(db: Database.Database): string[] {
  return (db.prepare(`SELECT DISTINCT lease_owner AS o FROM links WHERE status = 'leased'`).all() as Row[]).map((r) => String(r.o));
}

export function releaseLeasesOf(db: Database.Database, owner: string): number {
  return db.prepare(`UPDATE links SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL WHERE status = 'leased' AND lease_owner = ?`).run(owner).changes;
}
