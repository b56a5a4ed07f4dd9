import { sha256 } from '../hash.js';
import { counterDeltas, firstInOrder, LINK_COLUMNS, linkOrderSql, toDomainScore, toLink, toWorker } from '../rows.js';
import type { ClaimResult, CompletePageInput, CompletePageResult, DomainScore, HostClaim, Link, LinkInput, LinkOrder, WorkerInfo } from '../store.js';
import { all, Contended, one, run, type Conn } from './conn.js';
import { insertNodes } from './nodes.js';

/**
 * The crawl frontier on MySQL, where several processes share it: leases are taken with
 * SELECT … FOR UPDATE SKIP LOCKED so that two processes never hand out one link, and every
 * counter moves by `x = x + ?`, never by a value read earlier.
 */

/**
 * A plain read first: INSERT IGNORE on a host that exists takes a shared lock on its row, and a
 * transaction that later bumps that domain's counters would then wait on its twin (a deadlock).
 */
async function domainIds(c: Conn, hosts: string[]): Promise<Map<string, number>> {
  const unique = [...new Set(hosts)].sort();
  const find = async (list: string[]) =>
    (await all(c, 'SELECT id, host FROM domains WHERE host IN (?)', [list])).map((r) => [String(r.host), Number(r.id)] as const);
  const out = new Map(await find(unique));
  const missing = unique.filter((h) => !out.has(h));
  if (missing.length > 0) {
    await run(c, 'INSERT IGNORE INTO domains (host) VALUES ?', [missing.map((h) => [h])]);
    for (const [h, id] of await find(missing)) out.set(h, id);
  }
  return out;
}

export async function addLinks(c: Conn, links: LinkInput[], at: number): Promise<number> {
  if (links.length === 0) return 0;
  const domains = await domainIds(c, links.map((l) => l.host));
  // Input order is discovery order (ids), so rows are not sorted for lock order; a deadlock
  // between two writers is retried by transaction().
  const rows = links.map((l) => [l.url, sha256(l.url), domains.get(l.host)!, l.depth, l.queryId ?? null, l.referrerId ?? null, at, l.priority ?? 0]);
  const res = await run(c,
    'INSERT IGNORE INTO links (url, url_hash, domain_id, depth, query_id, referrer_id, discovered_at, priority) VALUES ?', [rows]);
  return res.affectedRows;
}

export async function linkWhere(c: Conn, where: string, params: unknown[]): Promise<Link | undefined> {
  const row = await one(c, `SELECT ${LINK_COLUMNS} FROM links l JOIN domains d ON d.id = l.domain_id WHERE ${where}`, params);
  return row ? toLink(row) : undefined;
}

/** A link's own columns, read by the lease probes so that a leased link needs no second read. */
const PROBE_COLUMNS = LINK_COLUMNS.replace('d.host, ', '');

/**
 * Two indexed probes (pending and due; leased but expired), each taking the first row no one else
 * has locked, and the one that comes first in the walk's order wins. The loser's lock ends at commit.
 * `host` is the domain's, when the caller has it already.
 */
export async function leaseNextLink(
  c: Conn, domainId: number, owner: string, leaseMs: number, now: number, order: LinkOrder, host?: string,
): Promise<Link | undefined> {
  const by = linkOrderSql(order);
  const pendingRow = await one(c,
    `SELECT ${PROBE_COLUMNS} FROM links l WHERE domain_id = ? AND status = 'pending' AND (not_before IS NULL OR not_before <= ?)
     ORDER BY ${by} LIMIT 1 FOR UPDATE SKIP LOCKED`, [domainId, now]);
  const expiredRow = await one(c,
    `SELECT ${PROBE_COLUMNS} FROM links l WHERE domain_id = ? AND status = 'leased' AND lease_expires_at <= ?
     ORDER BY ${by} LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [domainId, now]);
  const row = firstInOrder([pendingRow, expiredRow], order);
  if (row === undefined) return undefined;
  const id = Number(row.id);
  // The row lock above is one server's: on a multi-primary cluster another node may lease the
  // same row at once. The lease is written only while the row is still free, and of two such
  // writes on two nodes, certification commits one and fails the other (1213), which runs again.
  const leased = await run(c,
    `UPDATE links SET status = 'leased', lease_owner = ?, lease_expires_at = ?
     WHERE id = ? AND (status = 'pending' OR (status = 'leased' AND lease_expires_at <= ?))`, [owner, now + leaseMs, id, now]);
  if (leased.affectedRows !== 1) throw new Contended(`link ${id} was leased by another writer`);
  host ??= String((await one(c, 'SELECT host FROM domains WHERE id = ?', [domainId]))!.host);
  return toLink({ ...row, host, status: 'leased', lease_owner: owner, lease_expires_at: now + leaseMs });
}

/**
 * See Store.claimNextLink. The domain's row, locked first, serialises the claims of one host
 * across processes; its links are then leased as leaseNextLink does.
 */
export async function claimNextLink(c: Conn, domainId: number, owner: string, h: HostClaim): Promise<ClaimResult> {
  const dom = await one(c, 'SELECT host, next_fetch_at FROM domains WHERE id = ? FOR UPDATE', [domainId]);
  if (!dom) return { none: true };
  if (dom.next_fetch_at != null && Number(dom.next_fetch_at) > h.now) return { waitUntil: Number(dom.next_fetch_at) };
  const live = await one(c, `SELECT COUNT(*) AS n FROM links WHERE domain_id = ? AND status = 'leased' AND lease_expires_at > ?`, [domainId, h.now]);
  if (Number(live?.n ?? 0) >= h.perHost) return { busyUntil: Number(dom.next_fetch_at ?? h.now) };
  const link = await leaseNextLink(c, domainId, owner, h.leaseMs, h.now, h.order, String(dom.host));
  if (!link) return { none: true };
  await run(c, 'UPDATE domains SET next_fetch_at = ? WHERE id = ?', [h.now + h.gapMs, domainId]);
  return { link };
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

export async function completePage(c: Conn, p: CompletePageInput): Promise<CompletePageResult> {
  const at = p.at ?? Date.now();
  const link = await one(c, 'SELECT url, domain_id, lease_owner FROM links WHERE id = ? FOR UPDATE', [p.linkId]);
  if (!link) throw new Error(`completePage: no link ${p.linkId}`);
  if (p.owner !== undefined && link.lease_owner !== p.owner) return { applied: false, nodeIds: [], newNodes: 0, newLinks: 0 };

  const nodes = await insertNodes(c, 'crawler', p.nodes, String(link.url), at);
  const newLinks = await addLinks(c, p.newLinks, at);
  const status = p.status ?? 'done';
  const retry = status === 'pending' ? 1 : 0;
  await run(c,
    `UPDATE links SET status = ?, outcome_kind = ?, outcome_detail = ?, etag = COALESCE(?, etag),
       last_modified = COALESCE(?, last_modified), lease_owner = NULL, lease_expires_at = NULL, completed_at = ?,
       attempts = attempts + ?, not_before = ?
     WHERE id = ?`,
    [status, p.outcome.kind, p.outcome.detail ? JSON.stringify(p.outcome.detail) : null, p.etag ?? null, p.lastModified ?? null,
      retry ? null : at, retry, retry ? (p.notBefore ?? null) : null, p.linkId]);
  const d = counterDeltas(status);
  await run(c,
    `UPDATE domains SET score = score + ?, pages = pages + ?, nodes = nodes + ?, errors = errors + ?,
       score_at = IF(? <> 0, ?, score_at), next_fetch_at = COALESCE(GREATEST(next_fetch_at, ?), ?, next_fetch_at) WHERE id = ?`,
    [p.domainReward, d.pages, new Set(nodes.ids).size, d.errors, p.domainReward, at, p.hostNextAt ?? null, p.hostNextAt ?? null, link.domain_id]);
  return { applied: true, nodeIds: nodes.ids, newNodes: nodes.newNodes, newLinks };
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
