import { escapeXml } from '../html/escape.js';
import { discoveryTree, type MapNode, type SiteMap, type TreeNode } from './graph.js';

/**
 * The site graph as a small SVG of our own, so that the HTML map shows the region's shape without
 * Graphviz: the pages of the map (not the links that lie outside it) in rows by their level in the
 * discovery tree, each a dot coloured by its state with its URL as the tooltip, and one line for
 * each pair of pages linked. Rows wrap, and a map past `maxNodes` pages draws its first levels.
 */

const COLOURS: Record<string, string> = { walked: '#1b5e20', failed: '#b00020', excluded: '#999', pending: '#1565c0', leased: '#1565c0' };
const STEP = 22;
const PER_ROW = 48;

export function mapSvg(map: SiteMap, maxNodes = 600): string {
  const rows: MapNode[][] = [];
  // Breadth-first over the tree, so that the nodes drawn are the upper levels when there are too many.
  let level: TreeNode[] = discoveryTree(map);
  let drawn = 0;
  while (level.length > 0 && drawn < maxNodes) {
    const inside = level.filter((t) => t.node.state !== 'outside').slice(0, maxNodes - drawn);
    for (let i = 0; i < inside.length; i += PER_ROW) rows.push(inside.slice(i, i + PER_ROW).map((t) => t.node));
    drawn += inside.length;
    level = level.flatMap((t) => t.children);
  }
  const at = new Map<string, { x: number; y: number }>();
  rows.forEach((row, r) => row.forEach((n, c) => at.set(n.id, { x: STEP / 2 + c * STEP, y: STEP / 2 + r * STEP * 2 })));
  const width = STEP * Math.max(1, ...rows.map((r) => r.length));
  const height = STEP * 2 * Math.max(1, rows.length);
  const pairs = new Set<string>();
  const lines: string[] = [];
  for (const e of map.edges) {
    const a = at.get(e.source);
    const b = at.get(e.target);
    const key = `${e.source}>${e.target}`;
    if (!a || !b || e.source === e.target || pairs.has(key)) continue;
    pairs.add(key);
    lines.push(`<line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}"/>`);
  }
  const dots = rows.flat().map((n) => {
    const p = at.get(n.id)!;
    return `<circle cx="${p.x}" cy="${p.y}" r="6" fill="${COLOURS[n.state] ?? '#555'}"><title>${escapeXml(`${n.status ?? n.state} ${n.url}${n.title ? ` — ${n.title}` : ''}`)}</title></circle>`;
  });
  const label = `The site graph: ${drawn} page(s) in ${rows.length} row(s), ${pairs.size} link(s) between them`;
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeXml(label)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`
    + `<g stroke="#bbb" stroke-width="1">${lines.join('')}</g><g>${dots.join('')}</g></svg>`;
}
