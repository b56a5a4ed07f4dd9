import type Database from 'better-sqlite3';
import { sha256 } from '../hash.js';
import { rankInIndex } from '../band-index.js';
import { BUMP_BANDS_EDITED, type BandCache } from './bands.js';
import { bandRows, bandsColumn, CANDIDATE_COLUMNS, evidenceJson, NODE_LINKS, toNodeLink, toProfile, candidatesInRank, heldCandidates, shingleBlob, checkMetaWords, FullBands, metaAudit, nodeQueryWhere, NODE_COLUMNS, ofStem, storyOf, toAudit, toNodeTime, toMetaWord, toUrlCheck, uniqueByStem, withMeta, type Row } from '../rows.js';
import { TextTakenError, type AuditEntry, type NearCandidate, type NodeChange, type StoryFile } from '../store.js';
import type {
  NodeLink, StoredProfile, MetaLinkInput,
  DrawOptions, MarkupFileInput, MetaWord, MetaWordInfo, MetaWordInput, NodeInput, NodeQuery, NodeStatus, Origin, ReplaceFileResult, StoredNode,
  UrlCheck,
} from '../store.js';

/** Meta words, nodes and markup files on SQLite. Callers hold the transaction. */

export function ensureMetaWords(db: Database.Database, words: MetaWordInput[]): MetaWord[] {
  checkMetaWords(words);
  const insert = db.prepare('INSERT OR IGNORE INTO meta_words (word, stem) VALUES (?, ?)');
  const select = db.prepare('SELECT id, word, stem FROM meta_words WHERE stem = ?');
  return words.map((w) => {
    insert.run(w.word, w.stem);
    return toMetaWord(select.get(w.stem) as Row);
  });
}

export interface InsertedNodes {
  ids: number[];
  newNodes: number;
}

/**
 * Stores nodes by (origin, text hash): a text met before links to its existing node, and a
 * near-copy (`copyOf`) to the node it copies; either is recorded as a copy when met on another page.
 * A new node's band keys go to `bands` too, when the caller's search has just synced it (BandCache.wrote).
 */
export function insertNodes(
  db: Database.Database, origin: Origin, nodes: NodeInput[], sourceUrl: string | null, at: number, full = new FullBands(), bands?: BandCache,
): InsertedNodes {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO nodes (origin, text, sentences, text_hash, source_url, relevance, created_at, shingles, bands)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const select = db.prepare('SELECT id, source_url FROM nodes WHERE origin = ? AND text_hash = ?');
  const link = db.prepare('INSERT OR IGNORE INTO node_meta (node_id, meta_word_id, weight, evidence) VALUES (?, ?, ?, ?)');
  const copy = db.prepare('INSERT OR IGNORE INTO node_copies (node_id, source_url, kind, similarity, found_at) VALUES (?, ?, ?, ?, ?)');
  const ids: number[] = [];
  let newNodes = 0;
  for (const n of nodes) {
    let id: number;
    if (n.copyOf) {
      id = n.copyOf.id;
      if (sourceUrl !== null) copy.run(id, sourceUrl, 'near', n.copyOf.similarity, at);
    } else {
      const hash = sha256(n.text);
      const keys = full.open(n.bands);
      const r = insert.run(origin, n.text, JSON.stringify(n.sentences ?? []), hash, sourceUrl, n.relevance ?? null, at, shingleBlob(n.shingles), bandsColumn(keys));
      newNodes += r.changes;
      if (r.changes > 0) {
        id = Number(r.lastInsertRowid);
        bands?.wrote(keys, id);
      } else {
        const row = select.get(origin, hash) as { id: number; source_url: string | null };
        id = row.id;
        if (sourceUrl !== null && row.source_url !== sourceUrl) copy.run(id, sourceUrl, 'exact', 1, at);
      }
    }
    n.metaWordIds.forEach((m, i) => link.run(id, m, n.metaWeights?.[i] ?? 1, evidenceJson(n, i)));
    ids.push(id);
  }
  return { ids, newNodes };
}

/**
 * The candidates (CANDIDATE_COLUMNS), given as a JSON array of ids. The unary plus keeps SQLite from
 * choosing the origin index, which would read every crawler node to find a handful.
 */
export const CANDIDATE_ROWS = `SELECT ${CANDIDATE_COLUMNS} FROM nodes WHERE id IN (SELECT value FROM json_each(?)) AND +origin = 'crawler'`;

export function nodesSharingBands(
  db: Database.Database, signatures: number[][], limit: number, full: FullBands, bands: BandCache,
): NearCandidate[][] {
  if (!signatures.some((s) => s.length > 0)) return signatures.map(() => []);
  const ranked = rankInIndex(bands.sync(db), signatures, limit, full);
  const { held, toRead } = heldCandidates(ranked, bands.candidates);
  const rows = toRead.length === 0 ? [] : (db.prepare(CANDIDATE_ROWS).all(JSON.stringify(toRead)) as Row[]);
  return candidatesInRank(ranked, held, rows, bands.candidates);
}

export function replaceMarkupFile(db: Database.Database, file: MarkupFileInput, at: number): ReplaceFileResult {
  const old = db.prepare('SELECT id FROM markup_files WHERE path = ?').get(file.path) as { id: number } | undefined;
  let oldNodeIds: number[] = [];
  if (old) {
    oldNodeIds = (db.prepare(
      `SELECT DISTINCT sn.node_id FROM section_nodes sn JOIN sections s ON s.id = sn.section_id WHERE s.file_id = ?`,
    ).all(old.id) as { node_id: number }[]).map((r) => r.node_id);
    db.prepare('DELETE FROM sections WHERE file_id = ?').run(old.id);
    db.prepare('UPDATE markup_files SET content_hash = ?, imported_at = ? WHERE id = ?').run(file.contentHash, at, old.id);
  }
  const fileId = old?.id ??
    Number(db.prepare('INSERT INTO markup_files (path, content_hash, imported_at) VALUES (?, ?, ?)')
      .run(file.path, file.contentHash, at).lastInsertRowid);

  const allWords = new Map<string, MetaWord>();
  const addSection = db.prepare('INSERT INTO sections (file_id, position, name, attributes) VALUES (?, ?, ?, ?)');
  const place = db.prepare('INSERT INTO section_nodes (section_id, position, node_id) VALUES (?, ?, ?)');
  // An edited file's nodes are the new version's only, so the old links of its own nodes go first.
  const unlink = db.prepare('DELETE FROM node_meta WHERE node_id = ?');
  for (const id of oldNodeIds) if (!placedElsewhere(db, id)) unlink.run(id);

  let nodes = 0;
  let newNodes = 0;
  let crawlerCopies = 0;
  const crawled = db.prepare("SELECT 1 FROM nodes WHERE origin = 'crawler' AND text_hash = ?");
  file.sections.forEach((section, si) => {
    const sectionId = Number(addSection.run(fileId, si, section.name, JSON.stringify(section.attributes)).lastInsertRowid);
    section.nodes.forEach((n, ni) => {
      if (crawled.get(sha256(n.text))) {
        crawlerCopies++;
        return;
      }
      const metas = ensureMetaWords(db, uniqueByStem(n.metaWords));
      for (const m of metas) allWords.set(m.stem, m);
      const r = insertNodes(db, 'author', [{ text: n.text, sentences: n.sentences, metaWordIds: metas.map((m) => m.id) }], null, at);
      place.run(sectionId, ni, r.ids[0]!);
      nodes++;
      newNodes += r.newNodes;
    });
  });
  const removedNodes = deleteOrphans(db, oldNodeIds);
  return { fileId, nodes, newNodes, removedNodes, crawlerCopies, metaWords: [...allWords.values()] };
}

function placedElsewhere(db: Database.Database, nodeId: number): boolean {
  return db.prepare('SELECT 1 FROM section_nodes WHERE node_id = ? LIMIT 1').get(nodeId) !== undefined;
}

/** Author nodes no file places any more. */
function deleteOrphans(db: Database.Database, nodeIds: number[]): number {
  const del = db.prepare(
    `DELETE FROM nodes WHERE id = ? AND origin = 'author' AND NOT EXISTS (SELECT 1 FROM section_nodes WHERE node_id = ?)`,
  );
  let removed = 0;
  for (const id of nodeIds) removed += del.run(id, id).changes;
  return removed;
}

export function loadNodes(db: Database.Database, where: string, params: unknown[], tail = 'ORDER BY n.id'): StoredNode[] {
  const rows = db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n ${where} ${tail}`).all(...params) as Row[];
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const metas = db.prepare(
    `SELECT nm.node_id, m.id, m.word, m.stem FROM node_meta nm JOIN meta_words m ON m.id = nm.meta_word_id
     WHERE nm.node_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids)) as Row[];
  return withMeta(rows, metas);
}

export function queryNodes(db: Database.Database, q: NodeQuery): StoredNode[] {
  const { where, params } = nodeQueryWhere(q, (url) => ({ sql: 'n.source_url = ?', params: [url] }));
  const limit = q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : '';
  return loadNodes(db, where, params, `ORDER BY n.id${limit}`);
}

/** See Store.curateNode; the caller holds the transaction. */
export function curateNode(db: Database.Database, id: number, change: NodeChange, who: string, at: number): StoredNode | undefined {
  const [node] = loadNodes(db, 'WHERE n.id = ?', [id]);
  if (!node) return undefined;
  const audit = db.prepare('INSERT INTO node_audit (node_id, at, who, action, before, after) VALUES (?, ?, ?, ?, ?, ?)');
  if (change.review !== undefined && change.review !== node.review) {
    db.prepare('UPDATE nodes SET review = ? WHERE id = ?').run(change.review, id);
    audit.run(id, at, who, 'review', node.review, change.review);
  }
  if (change.text !== undefined && change.text.text !== node.text) {
    const hash = sha256(change.text.text);
    const taken = db.prepare('SELECT id FROM nodes WHERE origin = ? AND text_hash = ? AND id <> ?').get(node.origin, hash, id) as Row | undefined;
    if (taken) throw new TextTakenError(id, Number(taken.id));
    db.prepare('UPDATE nodes SET text = ?, sentences = ?, text_hash = ?, shingles = NULL WHERE id = ?').run(change.text.text, JSON.stringify(change.text.sentences), hash, id);
    if (change.text.bands !== undefined) {
      db.prepare('UPDATE nodes SET bands = ? WHERE id = ?').run(bandsColumn(bandRows(change.text.bands)), id);
      db.prepare(BUMP_BANDS_EDITED).run();
    }
    audit.run(id, at, who, 'text', node.text, change.text.text);
  }
  if (change.metaWordIds !== undefined) {
    const before = metaAudit(node.metaWords.map((m) => m.id));
    const after = metaAudit(change.metaWordIds);
    if (before !== after) {
      db.prepare('DELETE FROM node_meta WHERE node_id = ?').run(id);
      const link = db.prepare('INSERT OR IGNORE INTO node_meta (node_id, meta_word_id, weight) VALUES (?, ?, 1)');
      for (const m of change.metaWordIds) link.run(id, m);
      audit.run(id, at, who, 'meta', before, after);
    }
  }
  return loadNodes(db, 'WHERE n.id = ?', [id])[0];
}

export function nodeAudit(db: Database.Database, opts: { nodeId?: number; limit: number }): AuditEntry[] {
  const where = opts.nodeId === undefined ? '' : 'WHERE node_id = ?';
  return (db.prepare(`SELECT * FROM node_audit ${where} ORDER BY id DESC LIMIT ${Math.max(0, Math.floor(opts.limit))}`)
    .all(...(opts.nodeId === undefined ? [] : [opts.nodeId])) as Row[]).map(toAudit);
}

export function nodeTimes(db: Database.Database, limit: number): { sourceUrl: string; createdAt: number }[] {
  return (db.prepare(`SELECT source_url, created_at FROM nodes WHERE origin = 'crawler' AND source_url IS NOT NULL ORDER BY id DESC LIMIT ${Math.max(0, Math.floor(limit))}`).all() as Row[]).map(toNodeTime);
}

export function story(db: Database.Database): StoryFile[] {
  return storyOf(db.prepare(
    `SELECT f.path, s.position AS section, s.name, sn.node_id FROM markup_files f
     JOIN sections s ON s.file_id = f.id LEFT JOIN section_nodes sn ON sn.section_id = s.id
     ORDER BY f.path, s.position, sn.position`,
  ).all() as Row[]);
}

export function countNodesOfStem(db: Database.Database, stem: string, opts: DrawOptions): Record<Origin, number> {
  const rows = db.prepare(`SELECT n.origin, COUNT(*) AS c ${ofStem(opts)} GROUP BY n.origin`).all(stem) as Row[];
  const out: Record<Origin, number> = { author: 0, crawler: 0 };
  for (const r of rows) out[String(r.origin) as Origin] = Number(r.c);
  return out;
}

export function weightsOfStem(db: Database.Database, stem: string, origin: Origin, opts: DrawOptions): { id: number; weight: number }[] {
  return (db.prepare(`SELECT n.id, nm.weight ${ofStem(opts)} AND n.origin = ? ORDER BY n.id`).all(stem, origin) as Row[])
    .map((r) => ({ id: Number(r.id), weight: Number(r.weight) }));
}

export function nodeSources(db: Database.Database): string[] {
  return (db.prepare("SELECT DISTINCT source_url FROM nodes WHERE origin = 'crawler' AND source_url IS NOT NULL ORDER BY source_url").all() as Row[])
    .map((r) => String(r.source_url));
}

export function setNodeStatus(db: Database.Database, ids: number[], status: NodeStatus, at: number): void {
  const set = db.prepare('UPDATE nodes SET status = ?, checked_at = ? WHERE id = ?');
  for (const id of ids) set.run(status, at, id);
}

export function urlChecks(db: Database.Database, scope: string): UrlCheck[] {
  return (db.prepare('SELECT * FROM url_checks WHERE scope = ? ORDER BY url').all(scope) as Row[]).map(toUrlCheck);
}

export function saveUrlChecks(db: Database.Database, scope: string, checks: UrlCheck[], replace: boolean): void {
  if (replace) db.prepare('DELETE FROM url_checks WHERE scope = ?').run(scope);
  const put = db.prepare(
    `INSERT OR REPLACE INTO url_checks (scope, url, state, status, detail, etag, last_modified, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const c of checks) put.run(scope, c.url, c.state, c.status, c.detail, c.etag, c.lastModified, c.checkedAt);
}

export function listMetaWords(db: Database.Database, neverSearched: boolean): MetaWordInfo[] {
  const rows = db.prepare(
    `SELECT m.id, m.word, m.stem,
       (SELECT COUNT(*) FROM node_meta nm WHERE nm.meta_word_id = m.id) AS nodes,
       (SELECT MAX(q.created_at) FROM query_meta qm JOIN search_queries q ON q.id = qm.query_id
         WHERE qm.meta_word_id = m.id) AS last_searched
     FROM meta_words m ORDER BY m.word, m.id`,
  ).all() as Row[];
  return rows
    .map((r) => ({ ...toMetaWord(r), nodes: Number(r.nodes), lastSearchedAt: r.last_searched == null ? null : Number(r.last_searched) }))
    .filter((m) => !neverSearched || m.lastSearchedAt === null);
}

/** See Store.saveProfiles; the caller holds the transaction. */
export function saveProfiles(db: Database.Database, profiles: Omit<StoredProfile, 'builtAt'>[], at: number): void {
  db.prepare('DELETE FROM meta_profiles').run();
  const put = db.prepare('INSERT INTO meta_profiles (meta_word_id, terms, anchors, sources, built_at) VALUES (?, ?, ?, ?, ?)');
  for (const p of profiles) put.run(p.metaWordId, JSON.stringify(p.terms), JSON.stringify(p.anchors), p.sources, at);
}

/** See Store.addMetaLinks; the caller holds the transaction. */
export function addMetaLinks(db: Database.Database, links: MetaLinkInput[]): number {
  const link = db.prepare('INSERT OR IGNORE INTO node_meta (node_id, meta_word_id, weight, evidence) VALUES (?, ?, ?, ?)');
  let added = 0;
  for (const l of links) added += link.run(l.nodeId, l.metaWordId, l.weight, JSON.stringify(l.evidence)).changes;
  return added;
}

export function profiles(db: Database.Database): StoredProfile[] {
  return (db.prepare('SELECT * FROM meta_profiles ORDER BY meta_word_id').all() as Row[]).map(toProfile);
}

export function nodeLinks(db: Database.Database, nodeId: number): NodeLink[] {
  return (db.prepare(NODE_LINKS).all(nodeId) as Row[]).map(toNodeLink);
}
