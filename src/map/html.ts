import { escapeHtml, safeHref } from '../html/escape.js';
import { reportDocument } from '../walk/actions/html.js';
import { discoveryTree, type SiteMap, type TreeNode } from './graph.js';

/**
 * The map as one self-contained HTML page: the discovery tree, each page a <details> element to
 * open and close (no script), with its status, type, Last-Modified, links out and, when asked,
 * its headers. Everything from the web is escaped; only http(s) URLs become links.
 */
export function mapHtml(map: SiteMap, facts: [string, string][]): string {
  const out = new Map<string, number>();
  for (const e of map.edges) out.set(e.source, (out.get(e.source) ?? 0) + 1);
  const item = (t: TreeNode): string => {
    const n = t.node;
    const what = n.status !== undefined ? String(n.status) : n.state;
    const meta = [n.contentType, n.lastModified && `modified ${n.lastModified}`, n.state !== 'walked' && n.outcome, out.get(n.id) && `${out.get(n.id)} link(s)`]
      .filter(Boolean)
      .map((x) => escapeHtml(String(x)))
      .join(' · ');
    const line = `<span class="status s-${escapeHtml(n.state)}">${escapeHtml(what)}</span> <a href="${safeHref(n.url)}">${escapeHtml(n.title || n.url)}</a>${n.title ? ` <small>${escapeHtml(n.url)}</small>` : ''}${meta ? ` <small class="meta">${meta}</small>` : ''}`;
    const headers = n.headers ? `<pre class="headers">${escapeHtml(Object.entries(n.headers).map(([k, v]) => `${k}: ${v}`).join('\n'))}</pre>` : '';
    if (t.children.length === 0 && !headers) return `<li>${line}</li>`;
    return `<li><details open><summary>${line}</summary>${headers}<ul>${t.children.map(item).join('')}</ul></details></li>`;
  };
  const tree = `<ul class="tree">${discoveryTree(map).map(item).join('\n')}</ul>`;
  return reportDocument('anwc map', facts, [tree]);
}
