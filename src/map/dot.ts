import type { MapNode, SiteMap } from './graph.js';

/** The link multigraph in Graphviz DOT: one statement per node and one per link, every string quoted and escaped. */

const COLOURS: Record<string, string> = { walked: 'black', failed: 'red', excluded: 'grey50', pending: 'blue', leased: 'blue', outside: 'grey70' };

export function mapDot(map: SiteMap): string {
  const lines = ['digraph site {', '  graph [rankdir=LR, fontname="sans-serif"];', '  node [shape=box, fontsize=10, fontname="sans-serif"];', '  edge [fontsize=8];'];
  for (const n of map.nodes) {
    const attrs = [
      `label=${dotString(label(n))}`, `URL=${dotString(n.url)}`, `tooltip=${dotString(tooltip(n))}`, `color=${COLOURS[n.state] ?? 'black'}`,
      ...(n.state === 'outside' ? ['style=dashed'] : []),
    ];
    lines.push(`  ${n.id} [${attrs.join(', ')}];`);
  }
  for (const e of map.edges) lines.push(`  ${e.source} -> ${e.target} [label=${dotString(e.tag)}];`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function label(n: MapNode): string {
  const path = new URL(n.url);
  return n.title ? `${n.title}\n${path.host}${path.pathname}` : `${path.host}${path.pathname}${path.search}`;
}

function tooltip(n: MapNode): string {
  return [n.status ?? n.state, n.contentType, n.lastModified].filter((x) => x !== undefined && x !== '').join(' · ');
}

/** A DOT double-quoted string: backslashes and quotes escaped, line breaks as \n, other control characters dropped. */
export function dotString(s: string): string {
  const body = s
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/[\u0000-\u001f\u007f]/g, '');
  return `"${body}"`;
}
