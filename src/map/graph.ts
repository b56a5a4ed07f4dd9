import { printable } from '../errors.js';

/**
 * The Web Mapper's model (W4 paper, section 5A): the walked region as a discovery tree (each page
 * under the page it was first found on) and as the full link multigraph (one edge per link on a
 * page, repeats kept). Pages the walk read carry what their server said; link targets it did not
 * read carry what became of them (failed, excluded, still pending) or that they lie outside the
 * map. Pure: the command gathers the facts, the writers turn this into files.
 */

/** What the mapper's action keeps of a page it read. */
export interface PageFacts {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string | null;
  lastModified?: string;
  title: string;
  depth: number;
  headers: Record<string, string>;
  /** Every reference on the page, each occurrence, in page order. */
  refs: { url: string; tag: string }[];
}

/** What the store knows of a URL the walk did not read (or read in an earlier run). */
export interface KnownLink {
  state: 'walked' | 'failed' | 'excluded' | 'pending' | 'leased';
  depth: number;
  status?: number;
  outcome?: string;
  /** The URL of the page it was found on. */
  parent?: string;
}

export type NodeState = KnownLink['state'] | 'outside';

export interface MapNode {
  id: string;
  url: string;
  state: NodeState;
  depth?: number;
  status?: number;
  contentType?: string;
  lastModified?: string;
  title?: string;
  /** Where a redirect on the same host ended. */
  finalUrl?: string;
  /** What became of a link not walked, in a few words (e.g. `http-error`, `refused`). */
  outcome?: string;
  headers?: Record<string, string>;
  /** The node id of the page it was first found on. */
  parent?: string;
}

export interface MapEdge {
  id: string;
  source: string;
  target: string;
  /** The element that holds the link: a, area, iframe, img, link… */
  tag: string;
}

export interface SiteMap {
  roots: string[];
  nodes: MapNode[];
  edges: MapEdge[];
}

export function buildMap(roots: readonly string[], pages: readonly PageFacts[], known: ReadonlyMap<string, KnownLink>, opts: { headers?: boolean } = {}): SiteMap {
  const nodes = new Map<string, MapNode>();
  const node = (url: string): MapNode => {
    let n = nodes.get(url);
    if (!n) nodes.set(url, (n = { id: `n${nodes.size}`, url, state: 'outside' }));
    return n;
  };
  for (const r of roots) node(r);
  for (const p of pages) {
    Object.assign(node(p.url), {
      state: 'walked', depth: p.depth, status: p.status,
      ...(p.contentType ? { contentType: p.contentType } : {}), ...(p.lastModified ? { lastModified: p.lastModified } : {}),
      ...(p.title ? { title: p.title } : {}), ...(p.finalUrl !== p.url ? { finalUrl: p.finalUrl } : {}), ...(opts.headers ? { headers: p.headers } : {}),
    });
  }
  const edges: MapEdge[] = [];
  for (const p of pages) {
    const from = node(p.url).id;
    for (const r of p.refs) edges.push({ id: `e${edges.length}`, source: from, target: node(r.url).id, tag: r.tag });
  }
  for (const n of nodes.values()) {
    const k = known.get(n.url);
    if (!k) continue;
    if (n.state === 'outside') Object.assign(n, { state: k.state, depth: k.depth, ...(k.status ? { status: k.status } : {}), ...(k.outcome ? { outcome: k.outcome } : {}) });
    const parent = k.parent === undefined ? undefined : nodes.get(k.parent);
    if (parent && parent !== n) n.parent = parent.id;
  }
  // A node the store does not know (outside the map's scope) hangs under the first page that links to it.
  const rootSet = new Set(roots);
  const list = [...nodes.values()];
  for (const e of edges) {
    const n = list[Number(e.target.slice(1))]!;
    if (n.parent === undefined && !rootSet.has(n.url) && e.source !== n.id) n.parent = e.source;
  }
  return { roots: [...roots], nodes: list, edges };
}

export interface TreeNode {
  node: MapNode;
  children: TreeNode[];
}

/** The discovery tree: roots first, then each page under the one it was found on; nodes with no known parent hang from the top. */
export function discoveryTree(map: SiteMap): TreeNode[] {
  const byId = new Map(map.nodes.map((n) => [n.id, { node: n, children: [] as TreeNode[] }]));
  const top: TreeNode[] = [];
  for (const t of byId.values()) {
    const parent = t.node.parent ? byId.get(t.node.parent) : undefined;
    (parent && !reaches(t, parent, byId) ? parent.children : top).push(t);
  }
  return top;
}

/** Whether `from` is an ancestor of `to` already (a loop in the parents would hide both). */
function reaches(from: TreeNode, to: TreeNode, byId: Map<string, TreeNode>): boolean {
  let at: TreeNode | undefined = to;
  for (let hops = 0; at && hops <= byId.size; hops++) {
    if (at === from) return true;
    at = at.node.parent ? byId.get(at.node.parent) : undefined;
  }
  return false;
}

/** One line per node of the tree, indented by its place in it: status (or state), URL, title. */
export function treeText(map: SiteMap): string {
  const out: string[] = [];
  const visit = (t: TreeNode, level: number) => {
    const n = t.node;
    const what = n.status !== undefined ? String(n.status) : n.state;
    out.push(`${'  '.repeat(level)}${what} ${n.url}${n.title ? `  ${printable(n.title.replace(/\s+/g, ' ').trim())}` : ''}`);
    for (const c of t.children) visit(c, level + 1);
  };
  for (const t of discoveryTree(map)) visit(t, 0);
  return out.length ? `${out.join('\n')}\n` : '';
}

export function mapJson(map: SiteMap): string {
  const strip = (t: TreeNode): unknown => ({ id: t.node.id, url: t.node.url, children: t.children.map(strip) });
  return `${JSON.stringify({ roots: map.roots, nodes: map.nodes, edges: map.edges, tree: discoveryTree(map).map(strip) }, null, 2)}\n`;
}
