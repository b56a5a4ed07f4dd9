import { escapeHtml, safeHref } from '../html/escape.js';
import { reportDocument } from '../walk/actions/html.js';
import { discoveryTree, type MapNode, type SiteMap, type TreeNode } from './graph.js';
import { mapSvg } from './svg.js';

/**
 * The map as one self-contained HTML page (no script): the site graph, then the discovery tree,
 * opened at the roots and folded below them, each page a <details> element with its status, type,
 * Last-Modified, links out and, when asked, its headers. The links that lie outside the map are
 * grouped by host under the page that holds them, folded, so they never crowd out the site.
 * Everything from the web is escaped; only http(s) URLs become links.
 */
const STYLE = `.tree,.tree ul{list-style:none;padding-left:1.2em}.tree{padding-left:0}details>summary{cursor:pointer}
.status{display:inline-block;min-width:3.5em;font-family:monospace}.s-failed{color:#b00020}.s-excluded,.s-outside{color:#777}
small{color:#555}figure{margin:1em 0;overflow:auto;max-height:30em;border:1px solid #ddd}`;

export function mapHtml(map: SiteMap, facts: [string, string][]): string {
  const out = new Map<string, number>();
  for (const e of map.edges) out.set(e.source, (out.get(e.source) ?? 0) + 1);
  const line = (n: MapNode) => {
    const what = n.status !== undefined ? String(n.status) : n.state;
    const meta = [n.contentType, n.lastModified && `modified ${n.lastModified}`, n.state !== 'walked' && n.outcome, out.get(n.id) && `${out.get(n.id)} link(s)`]
      .filter(Boolean)
      .map((x) => escapeHtml(String(x)))
      .join(' · ');
    return `<span class="status s-${escapeHtml(n.state)}">${escapeHtml(what)}</span> <a href="${safeHref(n.url)}">${escapeHtml(n.title || n.url)}</a>${n.title ? ` <small>${escapeHtml(n.url)}</small>` : ''}${meta ? ` <small class="meta">${meta}</small>` : ''}`;
  };
  const item = (t: TreeNode, open: boolean): string => {
    const n = t.node;
    const headers = n.headers ? `<pre class="headers">${escapeHtml(Object.entries(n.headers).map(([k, v]) => `${k}: ${v}`).join('\n'))}</pre>` : '';
    const inside = t.children.filter((c) => c.node.state !== 'outside');
    const outside = t.children.filter((c) => c.node.state === 'outside' && c.children.length === 0);
    const rest = t.children.filter((c) => c.node.state === 'outside' && c.children.length > 0);
    if (inside.length + outside.length + rest.length === 0 && !headers) return `<li>${line(n)}</li>`;
    const byHost = new Map<string, MapNode[]>();
    for (const c of outside) {
      const host = hostOf(c.node.url);
      const nodes = byHost.get(host);
      if (nodes) nodes.push(c.node);
      else byHost.set(host, [c.node]);
    }
    const groups = [...byHost].map(([host, nodes]) =>
      `<li><details><summary>outside the map: ${escapeHtml(host)} (${nodes.length} link${nodes.length === 1 ? '' : 's'})</summary><ul>${nodes.map((x) => `<li>${line(x)}</li>`).join('')}</ul></details></li>`);
    return `<li><details${open ? ' open' : ''}><summary>${line(n)}</summary>${headers}<ul>${[...inside, ...rest].map((c) => item(c, false)).join('')}${groups.join('')}</ul></details></li>`;
  };
  const tree = `<h2>Discovery tree</h2><ul class="tree">${discoveryTree(map).map((t) => item(t, true)).join('\n')}</ul>`;
  const graph = `<h2>Site graph</h2><figure>${mapSvg(map)}</figure>`;
  return reportDocument('anwc map', facts, [graph, tree], STYLE);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
