import { sha256 } from '../hash.js';
import { counterDeltas, firstInOrder, LINK_COLUMNS, linkOrderSql, toDomainScore, toLink, toWorker, type FullBands, type Row } from '../rows.js';
import { SCORE_FLOOR } from '../store.js';
import type { ClaimResult, CompletePageInput, CompletePageResult, DomainScore, HostClaim, Link, LinkInput, LinkOrder, WorkerInfo } from '../store.js';
import type { MysqlBandCache } from './bands.js';
import type { KnownDomains } from '../known-domains.js';
import { all, Contended, one, run, type Conn, type Statement, type Tx } from './conn.js';
import { searches, withNearCopiesAsync } from '../near-copies.js';
import { insertNodes, nodesSharingBands } from './nodes.js';

/**
 * The crawl frontier on MySQL, where several processes share it: leases are taken with
 * SELECT … FOR UPDATE SKIP LOCKED so that two processes never hand out one link, and every
 * counter moves by `x = x + ?`, never by a value read earlier.
 */

/**
 * The ids of hosts' domains, made where missing; the ids already `known` are not read again.
 * A plain read first: INSERT IGNORE on a host that exists takes a shared lock on its row, and a
 * transaction that later bumps that domain's counters would then wait on its twin (a deadlock).
 */
async function domainIds(c: Conn, hosts: string[], known: KnownDomains): Promise<Map<string, number>> {
  const unique = [...new Set(hosts)].sort();
  const find = async (list: string[]) =>
    (await all(c, 'SELECT id, host FROM domains WHERE host IN (?)', [list])).map((r) => [String(r.host), Number(r.id)] as const);
  const out = new Map<string, number>();
  const unknown: string[] = [];
  for (const h of unique) {
    const id = known.get(h);
    if (id === undefined) unknown.push(h);
    else out.set(h, id);
  }
  if (unknown.length > 0) for (const [h, id] of await find(unknown)) out.set(h, id);
  const missing = unknown.filter((h) => !out.has(h));
  if (missing.length > 0) {
    await run(c, 'INSERT IGNORE INTO domains (host) VALUES ?', [missing.map((h) => [h])]);
    for (const [h, id] of await find(missing)) out.set(h, id);
  }
  for (const h of unknown) known.set(h, out.get(h)!);
  return out;
}

const INSERT_LINKS = 'INSERT IGNORE INTO links (url, url_hash, domain_id, depth, query_id, referrer_id, discovered_at, priority) VALUES ?';

/**
 * Rows for INSERT_LINKS. Input order is discovery order (ids), so rows are not sorted for lock
 * order; a deadlock between two writers is retried by transaction().
 */
async function linkRows(c: Conn, links: LinkInput[], at: number, known: KnownDomains): Promise<unknown[][]> {
  const domains = await domainIds(c, links.map((l) => l.host), known);
  return links.map((l) => [l.url, sha256(l.url), domains.get(l.host)!, l.depth, l.queryId ?? null, l.referrerId ?? null, at, l.priority ?? 0]);
}

export async function addLinks(c: Conn, links: LinkInput[], at: number, known: KnownDomains): Promise<number> {
  if (links.length === 0) return 0;
  return (await run(c, INSERT_LINKS, [await linkRows(c, links, at, known)])).affectedRows;
}

export async function linkWhere(c: Conn, where: string, params: unknown[]): Promise<Link | undefined> {
  const row = await one(c, `SELECT ${LINK_COLUMNS} FROM links l JOIN domains d ON d.id = l.domain_id WHERE ${where}`, params);
  return row ? toLink(row) : undefined;
}

/** A link's own columns, read by the lease probes so that a leased link needs no second read. */
const PROBE_COLUMNS = LINK_COLUMNS.replace('d.host, ', '');

/**
 * Two indexed probes (pending and due; leased but expired), each taking the first row no one else
 * has locked; the one that comes first in the walk's order wins (`lease`). The loser's lock ends at commit.
 */
function probes(domainId: number, now: number, order: LinkOrder): Statement[] {
  return [probe('pending', domainId, now, order, 1), probe('expired', domainId, now, order, 1)];
}

const PROBED = {
  pending: "status = 'pending' AND (not_before IS NULL OR not_before <= ?)",
  expired: "status = 'leased' AND lease_expires_at <= ?",
};

function probe(which: keyof typeof PROBED, domainId: number, now: number, order: LinkOrder, count: number): Statement {
  return [`SELECT ${PROBE_COLUMNS} FROM links l WHERE domain_id = ? AND ${PROBED[which]}
    ORDER BY ${linkOrderSql(order)} LIMIT ${count} FOR UPDATE SKIP LOCKED`, [domainId, now]];
}

/**
 * The probes' first `count` in order, leased to owner as the transaction commits, with the host's
 * next fetch time when a claim gives one. The row locks of the probes are one server's: on a
 * multi-primary cluster another node may lease the same rows at once. The leases are written only
 * while the rows are still free, the host's time only when the leases were, and of two such
 * writes on two nodes, certification commits one and fails the other (1213), which runs again.
 */
async function lease(
  c: Tx, probed: Row[][], owner: string, leaseMs: number, now: number, order: LinkOrder, host: string, count: number,
  hostNext?: { domainId: number; at: number },
): Promise<Link[]> {
  const rows = firstInOrder(probed.flat(), order, count);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const expires = now + leaseMs;
  const [leased] = await c.commitWith([
    [`UPDATE links SET status = 'leased', lease_owner = ?, lease_expires_at = ?
      WHERE id IN (${ids.map(() => '?').join(', ')}) AND (status = 'pending' OR (status = 'leased' AND lease_expires_at <= ?))`,
    [owner, expires, ...ids, now]],
    ...(hostNext ? [[`UPDATE domains SET next_fetch_at = ?
      WHERE id = ? AND EXISTS (SELECT 1 FROM links WHERE id = ? AND lease_owner = ? AND lease_expires_at = ?)`,
      [hostNext.at, hostNext.domainId, ids[0], owner, expires]] as Statement] : []),
  ]);
  if (leased!.affectedRows !== ids.length) throw new Contended(`links ${ids.join(', ')} were leased by another writer`);
  return rows.map((row) => toLink({ ...row, host, status: 'leased', lease_owner: owner, lease_expires_at: expires }));
}

export async function leaseNextLink(c: Tx, domainId: number, owner: string, leaseMs: number, now: number, order: LinkOrder): Promise<Link | undefined> {
  const [dom, ...probed] = await c.batch([['SELECT host FROM domains WHERE id = ?', [domainId]], ...probes(domainId, now, order)]) as Row[][];
  if (dom!.length === 0) return undefined;
  return (await lease(c, probed, owner, leaseMs, now, order, String(dom![0]!.host), 1))[0];
}

/**
 * See Store.claimNextLink. The domain's row, locked first, serialises the claims of one host
 * across processes; its links are then leased as leaseNextLink does. Two round trips: the reads,
 * then the writes with the commit. The host's leases are counted, live and expired, in one
 * statement, and the expired ones probed only when there are some (a process died holding them),
 * which costs a third trip then and a statement less on every other claim.
 */
export async function claimNextLink(c: Tx, domainId: number, owner: string, h: HostClaim): Promise<ClaimResult> {
  const count = Math.max(1, h.count ?? 1);
  const [doms, leases, pending] = await c.batch([
    ['SELECT host, next_fetch_at FROM domains WHERE id = ? FOR UPDATE', [domainId]],
    [`SELECT COALESCE(SUM(lease_expires_at > ?), 0) AS live, COALESCE(SUM(lease_expires_at <= ?), 0) AS expired
      FROM links WHERE domain_id = ? AND status = 'leased'`, [h.now, h.now, domainId]],
    probe('pending', domainId, h.now, h.order, count),
  ]) as Row[][];
  const dom = doms![0];
  if (!dom) return { none: true };
  if (dom.next_fetch_at != null && Number(dom.next_fetch_at) > h.now) return { waitUntil: Number(dom.next_fetch_at) };
  if (Number(leases![0]!.live) >= h.perHost) return { busyUntil: Number(dom.next_fetch_at ?? h.now) };
  const expired = Number(leases![0]!.expired) > 0 ? await all(c, ...probe('expired', domainId, h.now, h.order, count)) : [];
  const links = await lease(c, [pending!, expired], owner, h.leaseMs, h.now, h.order, String(dom.host), count, { domainId, at: h.now + h.gapMs });
  return links.length > 0 ? { links } : { none: true };
}

/** Leases of owner's links back to pending, those of links it took but did not start; how many. */
export async function releaseLinks(c: Conn, owner: string, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return (await run(c,
    `UPDATE links SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL
     WHERE id IN (${ids.map(() => '?').join(', ')}) AND status = 'leased' AND lease_owner = ?`,
    [...ids, owner])).affectedRows;
}

export async function heartbeat(c: Conn, owner: string, b: { now: number; leaseMs: number; pages: number }): Promise<void> {
  await run(c,
    `INSERT INTO workers (owner, started_at, heartbeat_at, pages) VALUES (?, ?, ?, ?)
     ON DUPLICATE KEY UPDATE heartbeat_at = VALUES(heartbeat_at), pages = VALUES(pages), stopped_at = NULL`,
    [owner, b.now, b.now, b.pages]);
  await run(c, `UPDATE links SET lease_expires_at = ? WHERE status = 'leased' AND lease_owner = ?`, [b.now + b.leaseMs, owner]);
}

export async function liveWorkers(c: Conn, since: number): Promise<WorkerInfo[]> {
  const rows = await all(c,
    `SELECT w.*, (SELECT COUNT(*) FROM links l WHERE l.status = 'leased' AND l.lease_owner = w.owner) AS leases
     FROM workers w WHERE w.stopped_at IS NULL AND w.heartbeat_at >= ? ORDER BY w.started_at, w.owner`, [since]);
  return rows.map(toWorker);
}

export async function scoresSince(c: Conn, since: number): Promise<{ scores: DomainScore[]; latest: number }> {
  const rows = await all(c, 'SELECT id, host, score, score_at FROM domains WHERE score_at >= ? ORDER BY score_at', [since]);
  return { scores: rows.map(toDomainScore), latest: rows.length === 0 ? since : Number(rows[rows.length - 1]!.score_at) };
}

/**
 * See Store.completePage. Four round trips at most: the lease check, with the band keys of the nodes written
 * since the last search when the page gave nodes with band keys; the near-copy candidates the
 * cache does not hold; the nodes (when the page gave any); then every other write with the commit.
 */
export async function completePage(
  c: Tx, p: CompletePageInput, known: KnownDomains, full: FullBands, cache: MysqlBandCache,
): Promise<CompletePageResult> {
  const at = p.at ?? Date.now();
  const lease: Statement = ['SELECT url, domain_id, lease_owner FROM links WHERE id = ? FOR UPDATE', [p.linkId]];
  const bands = searches(p.nodes) ? cache.read() : undefined;
  const answers = (bands ? await c.batch([lease, bands]) : [await all(c, ...lease)]) as Row[][];
  const link = answers[0]![0];
  const synced = bands && await cache.synced(c, bands, answers[1]!);
  if (!link) throw new Error(`completePage: no link ${p.linkId}`);
  if (p.owner !== undefined && link.lease_owner !== p.owner) return { applied: false, nodeIds: [], newNodes: 0, newLinks: 0 };

  const marked = await withNearCopiesAsync(p.nodes, (signatures, limit) => nodesSharingBands(c, signatures, limit, full, cache, synced));
  const nodes = await insertNodes(c, 'crawler', marked, String(link.url), at, full, cache);
  const status = p.status ?? 'done';
  const retry = status === 'pending' ? 1 : 0;
  const tried = retry && p.attempted !== false ? 1 : 0;
  const d = counterDeltas(status);
  const linkInsert: Statement[] = p.newLinks.length > 0 ? [[INSERT_LINKS, [await linkRows(c, p.newLinks, at, known)]]] : [];
  const [added] = await c.commitWith([
    ...linkInsert,
    [`UPDATE links SET status = ?, outcome_kind = ?, outcome_detail = ?, etag = COALESCE(?, etag),
       last_modified = COALESCE(?, last_modified), lease_owner = NULL, lease_expires_at = NULL, completed_at = ?,
       attempts = attempts + ?, not_before = ?
     WHERE id = ?`,
    [status, p.outcome.kind, p.outcome.detail ? JSON.stringify(p.outcome.detail) : null, p.etag ?? null, p.lastModified ?? null,
      retry ? null : at, tried, retry ? (p.notBefore ?? null) : null, p.linkId]],
    [`UPDATE domains SET score = GREATEST(LEAST(score, ${SCORE_FLOOR}), score + ?), pages = pages + ?, nodes = nodes + ?, errors = errors + ?,
       score_at = IF(? <> 0, ?, score_at), next_fetch_at = COALESCE(GREATEST(next_fetch_at, ?), ?, next_fetch_at) WHERE id = ?`,
    [p.domainReward, d.pages, new Set(nodes.ids).size, d.errors, p.domainReward, at, p.hostNextAt ?? null, p.hostNextAt ?? null, link.domain_id]],
  ]);
  return { applied: true, nodeIds: nodes.ids, newNodes: nodes.newNodes, newLinks: linkInsert.length > 0 ? added!.affectedRows : 0 };
}

export async function releaseExpiredLeases(c: Conn, now: number): Promise<number> {
  return (await run(c,
    `UPDATE links SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL WHERE status = 'leased' AND lease_expires_at <= ?`,
    [now])).affectedRows;
}

export async function domainsWithPending(c: Conn, now: number): Promise<DomainScore[]> {
  const rows = await all(c,
    `SELECT d.id, d.host, d.score FROM domains d
     WHERE EXISTS (SELECT 1 FROM links l WHERE l.domain_id = d.id AND l.status = 'pending')
        OR EXISTS (SELECT 1 FROM links l WHERE l.domain_id = d.id AND l.status = 'leased' AND l.lease_expires_at <= ?)
     ORDER BY d.id`, [now]);
  return rows.map(toDomainScore);
}

/**
 * The domains given pending links after link `afterLinkId` (links.id only grows), and the newest
 * link id: how a process learns of the work other processes found without scanning every domain.
 */
export async function domainsWithLinksAfter(c: Conn, afterLinkId: number): Promise<{ domains: DomainScore[]; newestLinkId: number }> {
  const newest = await one(c, 'SELECT MAX(id) AS id FROM links');
  const rows = await all(c,
    `SELECT d.id, d.host, d.score, x.pending FROM
       (SELECT domain_id, SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending FROM links WHERE id > ? GROUP BY domain_id) x
     JOIN domains d ON d.id = x.domain_id ORDER BY d.id`, [afterLinkId]);
  return { domains: rows.filter((r) => Number(r.pending) > 0).map(toDomainScore), newestLinkId: Number(newest?.id ?? 0) };
}

export async function nextDueAt(c: Conn, domainId: number): Promise<number | null> {
  const row = await one(c, `SELECT MIN(not_before) AS at FROM links WHERE domain_id = ? AND status = 'pending'`, [domainId]);
  return row?.at == null ? null : Number(row.at);
}

export async function requeueRefused(c: Conn): Promise<number> {
  return (await run(c, `UPDATE links SET status = 'pending', not_before = NULL WHERE status = 'excluded' AND outcome_kind = 'refused'`)).affectedRows;
}

export async function retryFailed(c: Conn, where: { sql: string; params: string[] }): Promise<number> {
  return (await run(c, `UPDATE links SET status = 'pending', attempts = 0, not_before = NULL WHERE ${where.sql}`, where.params)).affectedRows;
}

export async function leaseOwners(c: Conn): Promise<string[]> {
  return (await all(c, `SELECT DISTINCT lease_owner AS o FROM links WHERE status = 'leased'`)).map((r) => String(r.o));
}

export async function releaseLeasesOf(c: Conn, owner: string): Promise<number> {
  return (await run(c, `UPDATE links SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL WHERE status = 'leased' AND lease_owner = ?`, [owner])).affectedRows;
}
