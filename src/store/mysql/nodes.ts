import type { ResultSetHeader } from 'mysql2/promise';
import { sha256 } from '../hash.js';
import { bandRows, bandsColumn, CANDIDATE_COLUMNS, evidenceJson, NODE_LINKS, toNodeLink, toProfile, candidatesInRank, heldCandidates, shingleBlob, checkMetaWords, FullBands, metaAudit, nodeQueryWhere, NODE_COLUMNS, ofStem, storyOf, toAudit, toNodeTime, toMetaWord, toUrlCheck, uniqueByStem, withMeta, type Row } from '../rows.js';
import { TextTakenError, type AuditEntry, type NearCandidate, type NodeChange, type StoryFile } from '../store.js';
import type {
  NodeLink, StoredProfile, MetaLinkInput,
  DrawOptions, MarkupFileInput, MetaWord, MetaWordInfo, MetaWordInput, NodeInput, NodeQuery, NodeStatus, Origin, ReplaceFileResult, StoredNode,
  UrlCheck,
} from '../store.js';
import { rankInIndex, type BandIndex } from '../band-index.js';
import { BUMP_BANDS_EDITED, type MysqlBandCache } from './bands.js';
import { all, one, run, type Conn, type Tx } from './conn.js';

/**
 * Meta words, nodes and markup files on MySQL. Callers hold the transaction. Meta words go in
 * sorted by stem, so two writers take their locks in one order.
 */


export async function ensureMetaWords(c: Conn, words: MetaWordInput[]): Promise<MetaWord[]> {
  if (words.length === 0) return [];
  checkMetaWords(words);
  const unique = uniqueByStem(words).sort((a, b) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0));
  await run(c, 'INSERT IGNORE INTO meta_words (word, stem) VALUES ?', [unique.map((w) => [w.word, w.stem])]);
  const rows = await all(c, 'SELECT id, word, stem FROM meta_words WHERE stem IN (?)', [unique.map((w) => w.stem)]);
  const byStem = new Map(rows.map((r) => [String(r.stem), toMetaWord(r)]));
  return words.map((w) => byStem.get(w.stem)!);
}

export interface InsertedNodes {
  ids: number[];
  newNodes: number;
}

/**
 * Stores nodes by (origin, text hash): a text met before links to its existing node, and a
 * near-copy (`copyOf`) to the node it copies; either is recorded as a copy when met on another page.
 */
export async function insertNodes(
  c: Tx, origin: Origin, nodes: NodeInput[], sourceUrl: string | null, at: number, full = new FullBands(), cache?: MysqlBandCache,
): Promise<InsertedNodes> {
  if (nodes.length === 0) return { ids: [], newNodes: 0 };
  // Input order (a page's reading order) becomes id order, as on SQLite.
  const hashed = nodes.filter((n) => !n.copyOf).map((n) => ({ n, hash: sha256(n.text), keys: full.open(n.bands) }));
  let newNodes = 0;
  const madeOf = new Map(hashed.map((h) => [h.n, h]));
  const byHash = new Map<string, { id: number; source: string | null }>();
  if (hashed.length > 0) {
    const [res, rows] = await c.batch([
      ['INSERT IGNORE INTO nodes (origin, text, sentences, text_hash, source_url, relevance, created_at, shingles, bands) VALUES ?',
        [hashed.map(({ n, hash, keys }) => [origin, n.text, JSON.stringify(n.sentences ?? []), hash, sourceUrl, n.relevance ?? null, at, shingleBlob(n.shingles), bandsColumn(keys)])]],
      ['SELECT id, text_hash, source_url FROM nodes WHERE origin = ? AND text_hash IN (?)', [origin, hashed.map((h) => h.hash)]],
    ]) as [ResultSetHeader, Row[]];
    newNodes = res.affectedRows;
    for (const r of rows) byHash.set(String(r.text_hash), { id: Number(r.id), source: r.source_url == null ? null : String(r.source_url) });
  }
  const ids: number[] = [];
  const bands: [number, number][] = [];
  const copies: unknown[][] = [];
  for (const n of nodes) {
    if (n.copyOf) {
      ids.push(n.copyOf.id);
      if (sourceUrl !== null) copies.push([n.copyOf.id, sha256(sourceUrl), sourceUrl, 'near', n.copyOf.similarity, at]);
      continue;
    }
    const made = madeOf.get(n)!;
    const row = byHash.get(made.hash)!;
    ids.push(row.id);
    // A node made from another page is a copy met again; one made from this page has its keys
    // (written with it, the first time the page was walked).
    if (sourceUrl !== null && row.source !== sourceUrl) copies.push([row.id, sha256(sourceUrl), sourceUrl, 'exact', 1, at]);
    else for (const key of made.keys) bands.push([key, row.id]);
  }
  cache?.wrote(bands);
  // Nobody reads these answers: they go with the transaction's next round trip.
  if (copies.length > 0) c.later('INSERT IGNORE INTO node_copies (node_id, source_hash, source_url, kind, similarity, found_at) VALUES ?', [copies]);
  const links = nodes.flatMap((n, i) => n.metaWordIds.map((m, k): [number, number, number, string | null] => [ids[i]!, m, n.metaWeights?.[k] ?? 1, evidenceJson(n, k)]));
  if (links.length > 0) {
    links.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    c.later('INSERT IGNORE INTO node_meta (node_id, meta_word_id, weight, evidence) VALUES ?', [links]);
  }
  return { ids, newNodes };
}

/** The crawler nodes that share a band key with any of the signatures. */
export async function nodesSharingBands(
  c: Conn, signatures: number[][], limit: number, full: FullBands, cache: MysqlBandCache, synced?: BandIndex,
): Promise<NearCandidate[][]> {
  if (!signatures.some((s) => s.length > 0)) return signatures.map(() => []);
  const ranked = rankInIndex(synced ?? await cache.sync(c), signatures, limit, full);
  const { held, toRead } = heldCandidates(ranked, cache.candidates);
  const rows = toRead.length === 0 ? [] : await all(c, `SELECT ${CANDIDATE_COLUMNS} FROM nodes WHERE id IN (?) AND origin = 'crawler'`, [toRead]);
  return candidatesInRank(ranked, held, rows, cache.candidates);
}

export async function replaceMarkupFile(c: Tx, file: MarkupFileInput, at: number): Promise<ReplaceFileResult> {
  const pathHash = sha256(file.path);
  const old = await one(c, 'SELECT id FROM markup_files WHERE path_hash = ? FOR UPDATE', [pathHash]);
  let oldNodeIds: number[] = [];
  let fileId: number;
  if (old) {
    fileId = Number(old.id);
    oldNodeIds = (await all(c,
      'SELECT DISTINCT sn.node_id FROM section_nodes sn JOIN sections s ON s.id = sn.section_id WHERE s.file_id = ?', [fileId],
    )).map((r) => Number(r.node_id));
    await run(c, 'DELETE FROM sections WHERE file_id = ?', [fileId]);
    await run(c, 'UPDATE markup_files SET content_hash = ?, imported_at = ? WHERE id = ?', [file.contentHash, at, fileId]);
  } else {
    fileId = (await run(c, 'INSERT INTO markup_files (path, path_hash, content_hash, imported_at) VALUES (?, ?, ?, ?)',
      [file.path, pathHash, file.contentHash, at])).insertId;
  }
  const exclusive = await onlyHere(c, oldNodeIds);
  if (exclusive.length > 0) await run(c, 'DELETE FROM node_meta WHERE node_id IN (?)', [exclusive]);

  const allWords = new Map<string, MetaWord>();
  let nodes = 0;
  let newNodes = 0;
  let crawlerCopies = 0;
  for (const [si, section] of file.sections.entries()) {
    const sectionId = (await run(c, 'INSERT INTO sections (file_id, position, name, attributes) VALUES (?, ?, ?, ?)',
      [fileId, si, section.name, JSON.stringify(section.attributes)])).insertId;
    for (const [ni, n] of section.nodes.entries()) {
      if (await one(c, "SELECT 1 FROM nodes WHERE origin = 'crawler' AND text_hash = ?", [sha256(n.text)])) {
        crawlerCopies++;
        continue;
      }
      const metas = await ensureMetaWords(c, uniqueByStem(n.metaWords));
      for (const m of metas) allWords.set(m.stem, m);
      const r = await insertNodes(c, 'author', [{ text: n.text, sentences: n.sentences, metaWordIds: metas.map((m) => m.id) }], null, at);
      await run(c, 'INSERT INTO section_nodes (section_id, position, node_id) VALUES (?, ?, ?)', [sectionId, ni, r.ids[0]]);
      nodes++;
      newNodes += r.newNodes;
    }
  }
  let removedNodes = 0;
  if (exclusive.length > 0) {
    removedNodes = (await run(c,
      `DELETE FROM nodes WHERE id IN (?) AND origin = 'author' AND NOT EXISTS (SELECT 1 FROM section_nodes sn WHERE sn.node_id = nodes.id)`,
      [exclusive])).affectedRows;
  }
  return { fileId, nodes, newNodes, removedNodes, crawlerCopies, metaWords: [...allWords.values()] };
}

/** Of these nodes, those no other file places (this file's placements are gone by now). */
async function onlyHere(c: Conn, nodeIds: number[]): Promise<number[]> {
  if (nodeIds.length === 0) return [];
  const placed = new Set((await all(c, 'SELECT DISTINCT node_id FROM section_nodes WHERE node_id IN (?)', [nodeIds])).map((r) => Number(r.node_id)));
  return nodeIds.filter((id) => !placed.has(id));
}

export async function loadNodes(c: Conn, where: string, params: unknown[], tail = 'ORDER BY n.id'): Promise<StoredNode[]> {
  const rows = await all(c, `SELECT ${NODE_COLUMNS} FROM nodes n ${where} ${tail}`, params);
  if (rows.length === 0) return [];
  const metas = await all(c,
    `SELECT nm.node_id, m.id, m.word, m.stem FROM node_meta nm JOIN meta_words m ON m.id = nm.meta_word_id WHERE nm.node_id IN (?)`,
    [rows.map((r) => Number(r.id))]);
  return withMeta(rows, metas);
}

export async function queryNodes(c: Conn, q: NodeQuery): Promise<StoredNode[]> {
  const { where, params } = nodeQueryWhere(q, (url) => ({ sql: 'n.source_hash = SHA2(?, 256) AND n.source_url = ?', params: [url, url] }));
  const limit = q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : '';
  return loadNodes(c, where, params, `ORDER BY n.id${limit}`);
}

/** See Store.curateNode; `c` is in a transaction. */
export async function curateNode(c: Conn, id: number, change: NodeChange, who: string, at: number): Promise<StoredNode | undefined> {
  const [node] = await loadNodes(c, 'WHERE n.id = ?', [id], 'FOR UPDATE');
  if (!node) return undefined;
  const audit = (action: AuditEntry['action'], before: string, after: string) =>
    run(c, 'INSERT INTO node_audit (node_id, at, who, action, `before`, `after`) VALUES (?, ?, ?, ?, ?, ?)', [id, at, who, action, before, after]);
  if (change.review !== undefined && change.review !== node.review) {
    await run(c, 'UPDATE nodes SET review = ? WHERE id = ?', [change.review, id]);
    await audit('review', node.review, change.review);
  }
  if (change.text !== undefined && change.text.text !== node.text) {
    const hash = sha256(change.text.text);
    const taken = await one(c, 'SELECT id FROM nodes WHERE origin = ? AND text_hash = ? AND id <> ?', [node.origin, hash, id]);
    if (taken) throw new TextTakenError(id, Number(taken.id));
    await run(c, 'UPDATE nodes SET text = ?, sentences = ?, text_hash = ?, shingles = NULL WHERE id = ?', [change.text.text, JSON.stringify(change.text.sentences), hash, id]);
    if (change.text.bands !== undefined) {
      await run(c, 'UPDATE nodes SET bands = ? WHERE id = ?', [bandsColumn(bandRows(change.text.bands)), id]);
      await run(c, BUMP_BANDS_EDITED);
    }
    await audit('text', node.text, change.text.text);
  }
  if (change.metaWordIds !== undefined) {
    const before = metaAudit(node.metaWords.map((m) => m.id));
    const after = metaAudit(change.metaWordIds);
    if (before !== after) {
      await run(c, 'DELETE FROM node_meta WHERE node_id = ?', [id]);
      const ids = [...new Set(change.metaWordIds)];
      if (ids.length > 0) await run(c, 'INSERT INTO node_meta (node_id, meta_word_id, weight) VALUES ?', [ids.map((m) => [id, m, 1])]);
      await audit('meta', before, after);
    }
  }
  return (await loadNodes(c, 'WHERE n.id = ?', [id]))[0];
}

export async function nodeAudit(c: Conn, opts: { nodeId?: number; limit: number }): Promise<AuditEntry[]> {
  const where = opts.nodeId === undefined ? '' : 'WHERE node_id = ?';
  return (await all(c, `SELECT * FROM node_audit ${where} ORDER BY id DESC LIMIT ${Math.max(0, Math.floor(opts.limit))}`,
    opts.nodeId === undefined ? [] : [opts.nodeId])).map(toAudit);
}

export async function nodeTimes(c: Conn, limit: number): Promise<{ sourceUrl: string; createdAt: number }[]> {
  return (await all(c, `SELECT source_url, created_at FROM nodes WHERE origin = 'crawler' AND source_url IS NOT NULL ORDER BY id DESC LIMIT ${Math.max(0, Math.floor(limit))}`)).map(toNodeTime);
}

export async function story(c: Conn): Promise<StoryFile[]> {
  return storyOf(await all(c,
    `SELECT f.path, s.position AS section, s.name, sn.node_id FROM markup_files f
     JOIN sections s ON s.file_id = f.id LEFT JOIN section_nodes sn ON sn.section_id = s.id
     ORDER BY f.path, s.position, sn.position`));
}

export async function countNodesOfStem(c: Conn, stem: string, opts: DrawOptions): Promise<Record<Origin, number>> {
  const out: Record<Origin, number> = { author: 0, crawler: 0 };
  for (const r of await all(c, `SELECT n.origin, COUNT(*) AS c ${ofStem(opts)} GROUP BY n.origin`, [stem])) {
    out[String(r.origin) as Origin] = Number(r.c);
  }
  return out;
}

export async function weightsOfStem(c: Conn, stem: string, origin: Origin, opts: DrawOptions): Promise<{ id: number; weight: number }[]> {
  return (await all(c, `SELECT n.id, nm.weight ${ofStem(opts)} AND n.origin = ? ORDER BY n.id`, [stem, origin]))
    .map((r) => ({ id: Number(r.id), weight: Number(r.weight) }));
}

export async function nodeSources(c: Conn): Promise<string[]> {
  return (await all(c, "SELECT DISTINCT source_url FROM nodes WHERE origin = 'crawler' AND source_url IS NOT NULL ORDER BY source_url"))
    .map((r) => String(r.source_url));
}

export async function setNodeStatus(c: Conn, ids: number[], status: NodeStatus, at: number): Promise<void> {
  if (ids.length > 0) await run(c, 'UPDATE nodes SET status = ?, checked_at = ? WHERE id IN (?)', [status, at, ids]);
}

export async function urlChecks(c: Conn, scope: string): Promise<UrlCheck[]> {
  return (await all(c, 'SELECT * FROM url_checks WHERE scope = ? ORDER BY url', [scope])).map(toUrlCheck);
}

export async function saveUrlChecks(c: Conn, scope: string, checks: UrlCheck[], replace: boolean): Promise<void> {
  if (replace) await run(c, 'DELETE FROM url_checks WHERE scope = ?', [scope]);
  // In slices, so that a large site's results stay under max_allowed_packet.
  for (let i = 0; i < checks.length; i += 500) {
    await run(c,
      `INSERT INTO url_checks (scope, url_hash, url, state, status, detail, etag, last_modified, checked_at) VALUES ?
       ON DUPLICATE KEY UPDATE url = VALUES(url), state = VALUES(state), status = VALUES(status), detail = VALUES(detail),
         etag = VALUES(etag), last_modified = VALUES(last_modified), checked_at = VALUES(checked_at)`,
      [checks.slice(i, i + 500).map((x) => [scope, sha256(x.url), x.url, x.state, x.status, x.detail, x.etag, x.lastModified, x.checkedAt])]);
  }
}

export async function listMetaWords(c: Conn, neverSearched: boolean): Promise<MetaWordInfo[]> {
  const rows = await all(c,
    `SELECT m.id, m.word, m.stem,
       (SELECT COUNT(*) FROM node_meta nm WHERE nm.meta_word_id = m.id) AS nodes,
       (SELECT MAX(q.created_at) FROM query_meta qm JOIN search_queries q ON q.id = qm.query_id
         WHERE qm.meta_word_id = m.id) AS last_searched
     FROM meta_words m ORDER BY m.word, m.id`);
  return rows
    .map((r) => ({ ...toMetaWord(r), nodes: Number(r.nodes), lastSearchedAt: r.last_searched == null ? null : Number(r.last_searched) }))
    .filter((m) => !neverSearched || m.lastSearchedAt === null);
}

/** See Store.saveProfiles; the caller holds the transaction. */
export async function saveProfiles(c: Tx, profiles: Omit<StoredProfile, 'builtAt'>[], at: number): Promise<void> {
  await run(c, 'DELETE FROM meta_profiles');
  if (profiles.length === 0) return;
  await run(c, 'INSERT INTO meta_profiles (meta_word_id, terms, anchors, sources, built_at) VALUES ?',
    [profiles.map((p) => [p.metaWordId, JSON.stringify(p.terms), JSON.stringify(p.anchors), p.sources, at])]);
}

/** See Store.addMetaLinks; rows in key order, so that concurrent writers lock index entries in one order. */
export async function addMetaLinks(c: Conn, links: MetaLinkInput[]): Promise<number> {
  if (links.length === 0) return 0;
  const rows = links.map((l) => [l.nodeId, l.metaWordId, l.weight, JSON.stringify(l.evidence)] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return (await run(c, 'INSERT IGNORE INTO node_meta (node_id, meta_word_id, weight, evidence) VALUES ?', [rows])).affectedRows;
}

export async function profiles(c: Conn): Promise<StoredProfile[]> {
  return (await all(c, 'SELECT * FROM meta_profiles ORDER BY meta_word_id')).map(toProfile);
}

export async function nodeLinks(c: Conn, nodeId: number): Promise<NodeLink[]> {
  return (await all(c, NODE_LINKS, [nodeId])).map(toNodeLink);
}
