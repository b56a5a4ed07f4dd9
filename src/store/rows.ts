import { endianness } from 'node:os';
import { keepNewest } from '../bounded.js';
import { shingleSet } from '../text/minhash.js';
import { words } from '../text/tokenize.js';
import type { CandidateCache } from './candidate-cache.js';
import { META_WORD_MAX, type AuditEntry, type Domain, type DomainScore, type WorkerInfo, type DrawOptions, type Link, type LinkOrder, type LinkOutcome, type LinkStatus, type MetaWord, type MetaWordInput, type NearCandidate, type NodeQuery, type NodeStatus, type Origin, type Review, type Run, type StoredNode, type StoryFile, type UrlCheck, type StoredProfile, type NodeLink, type LinkEvidence, type NodeInput } from './store.js';

/**
 * Rows as both backends return them (the SQL names columns alike) turned into the Store's
 * values. MySQL hands back some integers as strings (SUM, BIGINT) and SQLite as bigint only on
 * request, hence the Number() calls.
 */
export type Row = Record<string, unknown>;

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function json<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined || v === '') return fallback;
  return JSON.parse(String(v)) as T;
}

export function toMetaWord(r: Row): MetaWord {
  return { id: num(r.id), word: String(r.word), stem: String(r.stem) };
}

export function toNode(r: Row, metaWords: MetaWord[]): StoredNode {
  return {
    id: num(r.id),
    origin: String(r.origin) as Origin,
    text: String(r.text),
    sentences: json<string[]>(r.sentences, []),
    sourceUrl: strOrNull(r.source_url),
    relevance: numOrNull(r.relevance),
    createdAt: num(r.created_at),
    metaWords,
    status: (strOrNull(r.status) ?? 'ok') as NodeStatus,
    checkedAt: numOrNull(r.checked_at),
    review: (strOrNull(r.review) ?? 'unreviewed') as Review,
  };
}

/** Attaches each node's meta words from rows of (node_id, id, word, stem), sorted by word. */
export function withMeta(nodeRows: Row[], metaRows: Row[]): StoredNode[] {
  const byNode = new Map<number, MetaWord[]>();
  for (const r of metaRows) {
    const list = byNode.get(num(r.node_id)) ?? [];
    list.push(toMetaWord(r));
    byNode.set(num(r.node_id), list);
  }
  return nodeRows.map((r) => toNode(r, (byNode.get(num(r.id)) ?? []).sort((a, b) => a.id - b.id)));
}

export function toLink(r: Row): Link {
  const kind = strOrNull(r.outcome_kind);
  const outcome: LinkOutcome | null =
    kind === null ? null : { kind, ...(r.outcome_detail ? { detail: json<Record<string, unknown>>(r.outcome_detail, {}) } : {}) };
  return {
    id: num(r.id),
    url: String(r.url),
    domainId: num(r.domain_id),
    host: String(r.host),
    depth: num(r.depth),
    status: String(r.status) as LinkStatus,
    queryId: numOrNull(r.query_id),
    referrerId: numOrNull(r.referrer_id),
    referrerUrl: strOrNull(r.referrer_url),
    etag: strOrNull(r.etag),
    lastModified: strOrNull(r.last_modified),
    leaseOwner: strOrNull(r.lease_owner),
    leaseExpiresAt: numOrNull(r.lease_expires_at),
    outcome,
    discoveredAt: num(r.discovered_at),
    attempts: num(r.attempts ?? 0),
    notBefore: numOrNull(r.not_before),
    priority: num(r.priority ?? 0),
  };
}

export function toDomainScore(r: Row): DomainScore {
  return { id: num(r.id), host: String(r.host), score: num(r.score) };
}

export function toWorker(r: Row): WorkerInfo {
  return { owner: String(r.owner), startedAt: num(r.started_at), heartbeatAt: num(r.heartbeat_at), pages: num(r.pages), leases: num(r.leases ?? 0) };
}

export function toDomain(r: Row): Domain {
  return {
    id: num(r.id),
    host: String(r.host),
    score: num(r.score),
    pages: num(r.pages),
    nodes: num(r.nodes),
    errors: num(r.errors),
    nextFetchAt: numOrNull(r.next_fetch_at),
  };
}

export function toRun(r: Row): Run {
  return {
    id: num(r.id),
    params: json<Record<string, unknown>>(r.params, {}),
    seed: numOrNull(r.seed),
    stats: r.stats === null || r.stats === undefined ? null : json<Record<string, unknown>>(r.stats, {}),
    startedAt: num(r.started_at),
    endedAt: numOrNull(r.ended_at),
  };
}

/** The columns of a link joined with its domain's host, as toLink reads them. */
export const LINK_COLUMNS =
  'l.id, l.url, l.domain_id, d.host, l.depth, l.status, l.query_id, l.referrer_id, l.etag, l.last_modified, ' +
  'l.lease_owner, l.lease_expires_at, l.outcome_kind, l.outcome_detail, l.discovered_at, l.attempts, l.not_before, l.priority, ' +
  // The referrer's URL comes with the link, so a walker checking a picked link's scope needs no second read (issue: speed).
  '(SELECT r.url FROM links r WHERE r.id = l.referrer_id) AS referrer_url';

export const NODE_COLUMNS = 'n.id, n.origin, n.text, n.sentences, n.source_url, n.relevance, n.created_at, n.status, n.checked_at, n.review';

/** The nodes linked to a stem (the `?`) that may be drawn: never a rejected one, a gone one only when asked for. Both backends. */
export function ofStem(opts: DrawOptions): string {
  return `FROM nodes n JOIN node_meta nm ON nm.node_id = n.id JOIN meta_words m ON m.id = nm.meta_word_id
  WHERE m.stem = ? AND n.review <> 'rejected'${opts.withGone ? '' : " AND n.status <> 'gone'"}`;
}

/** A LIKE pattern that matches `s` literally (escape character `!`, which both dialects take as written). */
function likeLiteral(s: string): string {
  return s.replace(/[!%_]/g, (c) => `!${c}`);
}

/**
 * The WHERE clause of a NodeQuery (ORDER BY id and LIMIT are the caller's), for both backends;
 * `sourceUrl` is the backend's own condition on one parameter (MySQL seeks by the URL's hash).
 */
export function nodeQueryWhere(q: NodeQuery, sourceUrl: (url: string) => { sql: string; params: unknown[] }): { where: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...p: unknown[]) => { where.push(sql); params.push(...p); };
  if (q.origin) add('n.origin = ?', q.origin);
  if (q.stem !== undefined) add('n.id IN (SELECT nm.node_id FROM node_meta nm JOIN meta_words m ON m.id = nm.meta_word_id WHERE m.stem = ?)', q.stem);
  if (q.afterId !== undefined) add('n.id > ?', q.afterId);
  if (q.sourceUrl !== undefined) {
    const c = sourceUrl(q.sourceUrl);
    add(c.sql, ...c.params);
  }
  if (q.contains) add("LOWER(n.text) LIKE ? ESCAPE '!'", `%${likeLiteral(q.contains.toLowerCase())}%`);
  if (q.host) {
    const host = likeLiteral(q.host.toLowerCase());
    add("(n.source_url LIKE ? ESCAPE '!' OR n.source_url LIKE ? ESCAPE '!')", `http://${host}/%`, `https://${host}/%`);
  }
  if (q.status) add('n.status = ?', q.status);
  if (q.review) add('n.review = ?', q.review);
  if (q.createdFrom !== undefined) add('n.created_at >= ?', q.createdFrom);
  if (q.createdTo !== undefined) add('n.created_at <= ?', q.createdTo);
  return { where: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', params };
}

export function toAudit(r: Row): AuditEntry {
  return {
    id: num(r.id), nodeId: num(r.node_id), at: num(r.at), who: String(r.who),
    action: String(r.action) as AuditEntry['action'], before: strOrNull(r.before), after: strOrNull(r.after),
  };
}

export function toUrlCheck(r: Row): UrlCheck {
  return {
    url: String(r.url), state: String(r.state), status: numOrNull(r.status), detail: strOrNull(r.detail),
    etag: strOrNull(r.etag), lastModified: strOrNull(r.last_modified), checkedAt: num(r.checked_at),
  };
}

/** Meta words in input order, collapsing repeats of a stem (a node lists `run, running` once). */
export function uniqueByStem<T extends { stem: string }>(words: T[]): T[] {
  const seen = new Set<string>();
  return words.filter((w) => (seen.has(w.stem) ? false : (seen.add(w.stem), true)));
}

/** Page status → which domain counter a completed page adds to. */
export function counterDeltas(status: LinkStatus): { pages: number; errors: number } {
  // A link put back for a retry is not an error yet; it counts once it has failed for good.
  return { pages: status === 'done' ? 1 : 0, errors: status === 'failed' ? 1 : 0 };
}

/** MySQL would cut a longer word short, so both backends refuse it; the feed says so to the user first. */
export function checkMetaWords(words: MetaWordInput[]): void {
  for (const w of words) {
    if ([...w.word].length > META_WORD_MAX || [...w.stem].length > META_WORD_MAX) {
      throw new RangeError(`meta word longer than ${META_WORD_MAX} characters: ${w.word.slice(0, 40)}…`);
    }
  }
}

/** Of the rows at the head of a host's two leasable queues (pending; leased but expired), the first `count` in the order. */
export function firstInOrder(rows: Row[], order: LinkOrder, count: number): Row[] {
  const id = (r: Row) => Number(r.id);
  const priority = (r: Row) => Number(r.priority);
  const heads = [...rows];
  heads.sort((a, b) => (order === 'newest' ? id(b) - id(a) : order === 'priority' ? priority(b) - priority(a) || id(a) - id(b) : id(a) - id(b)));
  return heads.slice(0, count);
}

/** ORDER BY of a domain's next link for each LinkOrder. */
export function linkOrderSql(order: LinkOrder): string {
  switch (order) {
    case 'newest':
      return 'id DESC';
    case 'priority':
      return 'priority DESC, id ASC';
    case 'discovery':
      return 'id ASC';
  }
}

/**
 * How many nodes one band key holds (Store.nodesSharingBands). A key that more paragraphs share
 * says little about any one of them, as a stop word says little about a text, and reading them all
 * would make every page's near-copy search grow with the store. So a key takes no more nodes once
 * it holds this many (FullBands). MySQL then reads every node of a page's keys with one IN list,
 * where a UNION of one bounded branch a key cost the server twice the CPU; SQLite reads them from
 * memory (sqlite/bands.ts).
 */
export const BAND_FANOUT = 64;

/**
 * The band keys a store has seen full, so that a new node is not written under them. The search
 * reads every key of a page's nodes before the page is stored, so it learns them in time; a key
 * forgotten (the set is bounded) is learnt again by the next search that reads it.
 */
export class FullBands {
  private readonly keys = new Set<number>();

  constructor(private readonly kept = 100_000) {}

  /** Learns that `nodes` are filed under the key (at most BAND_FANOUT are read). */
  learn(key: number, nodes: number): void {
    if (nodes < BAND_FANOUT || this.keys.has(key)) return;
    this.keys.add(key);
    keepNewest(this.keys, this.kept);
  }

  /** The band rows (bandRows) a new node's signature is written under. */
  open(bands: readonly number[] | undefined): number[] {
    return bandRows(bands).filter((key) => !this.keys.has(key));
  }
}

/**
 * The `limit` ids found most often (ties: the newest, the highest id, first), given the ids found
 * under a signature's band keys, an id once for each key it shares with the signature. Sorts
 * `found`; keeps the best as they come instead of sorting all: a paragraph of common sentences
 * shares keys with a thousand nodes, and only eight are wanted.
 */
export function mostShared(found: Uint32Array, limit: number): number[] {
  if (limit <= 0) return [];
  found.sort();
  const top: { id: number; shared: number }[] = [];
  // From the highest id down, so that an id ties only with higher ones, which stay ahead of it.
  for (let end = found.length; end > 0;) {
    const id = found[end - 1]!;
    let start = end - 1;
    while (start > 0 && found[start - 1] === id) start--;
    const shared = end - start;
    end = start;
    if (top.length === limit) {
      if (shared <= top[limit - 1]!.shared) continue;
      top.pop();
    }
    let i = top.length;
    while (i > 0 && shared > top[i - 1]!.shared) i--;
    top.splice(i, 0, { id, shared });
  }
  return top.map((t) => t.id);
}

/**
 * The columns of a near-copy candidate (NearCandidate): the text only where no shingles stand for
 * it. The backends read them `FROM nodes` by id.
 */
export const CANDIDATE_COLUMNS = 'id, text_hash, shingles, CASE WHEN shingles IS NULL THEN text END AS text';

/**
 * The near-copy search's candidates after ranking (band-index.ts rankInIndex): those the cache holds, taken out
 * before the rest are read, which may push them out of it.
 */
export function heldCandidates(ranked: number[][], cache: CandidateCache): { held: Map<number, NearCandidate>; toRead: number[] } {
  const held = new Map<number, NearCandidate>();
  const toRead: number[] = [];
  for (const id of new Set(ranked.flat())) {
    const c = cache.get(id);
    if (c) held.set(id, c);
    else toRead.push(id);
  }
  return { held, toRead };
}

/**
 * Each signature's ranked candidate ids with the candidates held and the rows read
 * (CANDIDATE_COLUMNS), which the cache keeps, those stored without shingles split once here; an
 * id without either (no crawler node) is left out.
 */
export function candidatesInRank(ranked: number[][], held: Map<number, NearCandidate>, rows: Row[], cache: CandidateCache): NearCandidate[][] {
  for (const r of rows) {
    const c = toCandidate(r);
    held.set(c.id, c);
    cache.keep(c);
  }
  return ranked.map((list) => list.flatMap((id) => held.get(id) ?? []));
}

function toCandidate(r: Row): NearCandidate {
  return { id: Number(r.id), textHash: String(r.text_hash), shingles: shinglesOfBlob(r.shingles) ?? shingleSet(words(String(r.text))) };
}

/** A node's shingles as its `shingles` column keeps them: little-endian 32-bit words, whatever the machine. */
export function shingleBlob(shingles: Uint32Array | undefined): Buffer | null {
  if (!shingles) return null;
  return inOrder(Buffer.from(Uint32Array.from(shingles).buffer));
}

/** The `shingles` column back; undefined for a node stored without them. */
export function shinglesOfBlob(blob: unknown): Uint32Array | undefined {
  if (!(blob instanceof Uint8Array)) return undefined;
  const shingles = new Uint32Array(blob.byteLength >>> 2);
  const bytes = Buffer.from(shingles.buffer);
  bytes.set(blob.subarray(0, shingles.byteLength));
  inOrder(bytes);
  return shingles;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** Bytes of 32-bit words turned, in place, between the machine's order and little-endian: copied word by word, the column cost 3 % of a large crawl's CPU. */
function inOrder(words: Buffer): Buffer {
  return LITTLE_ENDIAN ? words : words.swap32();
}

/** Band keys as stored: band i's key in the i-th 2^32 range, so that keys of different bands never meet. */
export function bandRows(bands: readonly number[] | undefined): number[] {
  return (bands ?? []).map((key, band) => band * 2 ** 32 + key);
}

/** A node's stored band keys as its `bands` column keeps them: comma-separated, NULL for none. */
export function bandsColumn(keys: readonly number[]): string | null {
  return keys.length === 0 ? null : keys.join(',');
}

/** The `bands` column back; none for NULL. */
export function keysOfBandsColumn(value: unknown): number[] {
  return value == null || value === '' ? [] : String(value).split(',').map(Number);
}

/** Meta word ids as an audit line keeps them: sorted, as JSON, so that equal sets compare equal. */
export function metaAudit(ids: number[]): string {
  return JSON.stringify([...new Set(ids)].sort((a, b) => a - b));
}

/** Rows of (path, section, name, node_id) in story order, grouped into files and sections. */
export function storyOf(rows: Row[]): StoryFile[] {
  const files: StoryFile[] = [];
  let sectionKey = '';
  for (const r of rows) {
    const path = String(r.path);
    let file = files[files.length - 1];
    if (file?.path !== path) files.push((file = { path, sections: [] }));
    const key = `${path}\u0000${String(r.section)}`;
    if (key !== sectionKey) file.sections.push({ name: strOrNull(r.name), nodeIds: [] });
    sectionKey = key;
    if (r.node_id !== null && r.node_id !== undefined) file.sections[file.sections.length - 1]!.nodeIds.push(num(r.node_id));
  }
  return files;
}

export function toNodeTime(r: Row): { sourceUrl: string; createdAt: number } {
  return { sourceUrl: String(r.source_url), createdAt: num(r.created_at) };
}

/** A stored topic profile row (meta_profiles). */
export function toProfile(r: Row): StoredProfile {
  return {
    metaWordId: Number(r.meta_word_id),
    terms: JSON.parse(String(r.terms)) as Record<string, number>,
    anchors: JSON.parse(String(r.anchors)) as string[],
    sources: Number(r.sources),
    builtAt: Number(r.built_at),
  };
}

/** One of a node's links (node_meta joined to meta_words), its evidence read from JSON. */
export function toNodeLink(r: Row): NodeLink {
  return {
    metaWord: toMetaWord(r),
    weight: Number(r.weight),
    evidence: r.evidence == null ? null : (JSON.parse(String(r.evidence)) as LinkEvidence),
  };
}

/** node_meta.evidence of a node's i-th link, as stored. */
export function evidenceJson(n: NodeInput, i: number): string | null {
  const e = n.metaEvidence?.[i];
  return e ? JSON.stringify(e) : null;
}

export const NODE_LINKS = `SELECT m.id, m.word, m.stem, nm.weight, nm.evidence FROM node_meta nm JOIN meta_words m ON m.id = nm.meta_word_id
  WHERE nm.node_id = ? ORDER BY nm.weight DESC, m.word, m.id`;
