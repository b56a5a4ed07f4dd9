import { NODE_STATUSES, REVIEWS, type NodeStatus, type Origin, type Review, type StoreSummary, type StoredQuery, type WaitingRetries } from './store.js';
import type { Row } from './rows.js';

/**
 * The grouped counts behind `anwc stats`, written once for both backends. `failureKey` is the SQL
 * that reads a failed link's kind out of its JSON detail: SQLite and MariaDB spell it differently.
 */
export function summaryQueries(failureKey: string): Record<keyof StoreSummary, string> {
  return {
    nodes: 'SELECT origin AS k, COUNT(*) AS n FROM nodes GROUP BY origin',
    metaWords: 'SELECT COUNT(*) AS n FROM meta_words',
    queries: 'SELECT COUNT(*) AS n FROM search_queries',
    domains: 'SELECT COUNT(*) AS n FROM domains',
    links: 'SELECT status AS k, COUNT(*) AS n FROM links GROUP BY status',
    outcomes: 'SELECT outcome_kind AS k, COUNT(*) AS n FROM links WHERE outcome_kind IS NOT NULL GROUP BY outcome_kind',
    failures: `SELECT ${failureKey} AS k, COUNT(*) AS n FROM links WHERE status = 'failed' GROUP BY k`,
    // Links that needed more than one try. The links waiting for one are Store.waitingRetries: a
    // retry time that has passed makes a link plainly pending.
    retries: 'SELECT COUNT(*) AS n FROM links WHERE attempts > 0',
    nodeStatus: "SELECT status AS k, COUNT(*) AS n FROM nodes WHERE origin = 'crawler' GROUP BY status",
    reviews: "SELECT review AS k, COUNT(*) AS n FROM nodes WHERE origin = 'crawler' GROUP BY review",
    copies: 'SELECT kind AS k, COUNT(*) AS n FROM node_copies GROUP BY kind',
    offTopic: "SELECT COUNT(*) AS n FROM nodes n WHERE n.origin = 'crawler' AND NOT EXISTS (SELECT 1 FROM node_meta nm WHERE nm.node_id = n.id)",
  };
}

export function toSummary(rows: Record<keyof StoreSummary, Row[]>): StoreSummary {
  const grouped = (rs: Row[]) => Object.fromEntries(rs.map((r) => [String(r.k), Number(r.n)]));
  const count = (rs: Row[]) => Number(rs[0]?.n ?? 0);
  const nodes = grouped(rows.nodes);
  return {
    nodes: { author: nodes.author ?? 0, crawler: nodes.crawler ?? 0 } satisfies Record<Origin, number>,
    metaWords: count(rows.metaWords),
    queries: count(rows.queries),
    domains: count(rows.domains),
    links: grouped(rows.links),
    outcomes: grouped(rows.outcomes),
    failures: grouped(rows.failures),
    retries: { retried: count(rows.retries) },
    nodeStatus: Object.fromEntries(NODE_STATUSES.map((s) => [s, grouped(rows.nodeStatus)[s] ?? 0])) as Record<NodeStatus, number>,
    reviews: Object.fromEntries(REVIEWS.map((r) => [r, grouped(rows.reviews)[r] ?? 0])) as Record<Review, number>,
    copies: { exact: grouped(rows.copies).exact ?? 0, near: grouped(rows.copies).near ?? 0 },
    offTopic: count(rows.offTopic),
  };
}

/** Store.waitingRetries for both backends: one parameter, `now`. */
export const WAITING_RETRIES = "SELECT COUNT(*) AS n, MIN(not_before) AS at FROM links WHERE status = 'pending' AND not_before > ?";

/** The link of WAITING_RETRIES due first, with its outcome; same parameter. */
export const WAITING_FIRST =
  "SELECT url, outcome_kind AS kind, outcome_detail AS detail FROM links WHERE status = 'pending' AND not_before > ? ORDER BY not_before LIMIT 1";

export function toWaitingRetries(r: Row | undefined, first?: Row): WaitingRetries | null {
  if (r?.at == null) return null;
  const waiting: WaitingRetries = { links: Number(r.n), nextAt: Number(r.at) };
  if (first?.kind != null) waiting.first = { url: String(first.url), kind: String(first.kind), detail: parseDetail(first.detail) };
  return waiting;
}

/** A stored outcome's detail; one this version cannot read says nothing rather than failing a progress line. */
function parseDetail(text: unknown): Record<string, unknown> {
  try {
    const d: unknown = text == null ? {} : JSON.parse(String(text));
    return typeof d === 'object' && d !== null ? (d as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toStoredQuery(r: Row): StoredQuery {
  return {
    id: Number(r.id),
    provider: String(r.provider),
    terms: String(r.terms),
    results: JSON.parse(String(r.results ?? '[]')) as string[],
    createdAt: Number(r.created_at),
  };
}

/**
 * The WHERE clause of retryFailed: failed links, or only those whose failure key (as `failureKey`
 * spells it) is one of `kinds`; `5xx` and `4xx` stand for every `http-5NN` and `http-4NN`.
 */
export function failedWhere(failureKey: string, kinds: string[] | undefined): { sql: string; params: string[] } {
  if (!kinds || kinds.length === 0) return { sql: "status = 'failed'", params: [] };
  const exact = kinds.filter((k) => !/^[45]xx$/i.test(k));
  const classes = kinds.filter((k) => /^[45]xx$/i.test(k)).map((k) => `http-${k[0]}%`);
  const parts = [
    ...(exact.length > 0 ? [`${failureKey} IN (${exact.map(() => '?').join(', ')})`] : []),
    ...classes.map(() => `${failureKey} LIKE ?`),
  ];
  return { sql: `status = 'failed' AND (${parts.join(' OR ')})`, params: [...exact, ...classes] };
}
