import { html } from 'hono/html';
import { safeHref } from '../../html/escape.js';
import type { AuditEntry, MetaWordInfo, NodeQuery, Run, StoredNode } from '../../store/store.js';
import { NODE_STATUSES, REVIEWS } from '../../store/store.js';
import type { BlockVerdict } from '../../text/heuristics.js';
import { layout, notice, when, type Html } from './layout.js';

export interface NodeListView {
  query: NodeQuery & { word?: string; run?: number };
  nodes: StoredNode[];
  verdicts: BlockVerdict[];
  words: MetaWordInfo[];
  runs: Run[];
  /** The id to page on from, when there may be more. */
  next: number | null;
  /** This page's own address, where a review sends the reader back. */
  self: string;
  note?: string;
}

const option = (value: string, chosen: string | undefined, label = value) =>
  html`<option value="${value}"${value === (chosen ?? '') ? html` selected` : ''}>${label}</option>`;

/** Foreign text: the crawler's nodes, searched and filtered, each with its source, verdicts and review. */
export function nodeListPage(v: NodeListView): Html {
  const q = v.query;
  const body = html`
${notice(v.note)}
<form class="filters" method="get" action="/nodes" role="search">
<label>Text <input type="search" name="q" value="${q.contains ?? ''}"></label>
<label>Meta word <select name="word">${option('', q.word, 'any')}${v.words.map((w) => option(w.word, q.word))}</select></label>
<label>Run <select name="run">${option('', q.run === undefined ? undefined : String(q.run), 'any')}${v.runs.map((r) => option(String(r.id), q.run === undefined ? undefined : String(q.run), `${r.id} (${when(r.startedAt)})`))}</select></label>
<label>Domain <input name="host" value="${q.host ?? ''}" placeholder="en.example.org"></label>
<label>Page <select name="status">${option('', q.status, 'any')}${NODE_STATUSES.map((s) => option(s, q.status))}</select></label>
<label>Review <select name="review">${option('', q.review, 'any')}${REVIEWS.map((s) => option(s, q.review))}</select></label>
<button type="submit">Find</button>
</form>
${v.nodes.length === 0 ? html`<p>No crawler node matches.</p>` : html`<ol class="nodes">${v.nodes.map((n, i) => nodeItem(n, v.verdicts[i]!, v.self))}</ol>`}
${v.next !== null ? html`<p><a rel="next" href="${nextHref(v.self, v.next)}">More</a></p>` : ''}`;
  return layout('Foreign text', 'nodes', body);
}

function nextHref(self: string, after: number): string {
  const u = new URL(self, 'http://studio.invalid');
  u.searchParams.set('after', String(after));
  return `${u.pathname}${u.search}`;
}

function nodeItem(n: StoredNode, verdict: BlockVerdict, back: string): Html {
  return html`<li class="node crawler review-${n.review}" data-node="${n.id}">
<p>${n.text}</p>
<p class="meta"><a href="/nodes/${n.id}">node ${n.id}</a> · ${n.sourceUrl ? html`<a href="${safeHref(n.sourceUrl)}" rel="noopener noreferrer nofollow">${n.sourceUrl}</a>` : 'no source'}
 · meta ${n.metaWords.map((m) => m.word).join(', ') || 'none'} · page ${n.status} · <span class="review">${n.review}</span>
 · rules: ${verdictText(verdict)}</p>
${reviewButtons(n, back)}
</li>`;
}

function verdictText(v: BlockVerdict): string {
  const s = v.stats;
  const facts = `${s.words} words, ${Math.round(s.stopWordRatio * 100)} % stop words`;
  return v.accepted ? `pass (${facts})` : `${v.reasons.map((r) => r.rule).join(', ')} (${facts})`;
}

function reviewButtons(n: StoredNode, back: string): Html {
  return html`<form class="review" method="post" action="/nodes/${n.id}/review">
<input type="hidden" name="back" value="${back}">
${n.review !== 'approved' ? html`<button name="review" value="approved">Approve</button>` : ''}
${n.review !== 'rejected' ? html`<button name="review" value="rejected">Reject</button>` : ''}
${n.review !== 'unreviewed' ? html`<button name="review" value="unreviewed">Undo review</button>` : ''}
</form>`;
}

export interface NodeView {
  node: StoredNode;
  /** The meta words by id, to show an audit line's ids by name. */
  words: MetaWordInfo[];
  verdict: BlockVerdict;
  audit: AuditEntry[];
  note?: string;
  error?: string;
  /** What the author typed, shown again when it was refused. */
  draft?: { text: string; words: string };
}

/** One node: its text to edit, its meta words to re-tag, its review, and who changed what when. */
export function nodePage(v: NodeView): Html {
  const n = v.node;
  const text = v.draft?.text ?? n.text;
  const words = v.draft?.words ?? n.metaWords.map((m) => m.word).join(', ');
  const body = html`
${notice(v.note)}${notice(v.error, 'error')}
<p class="meta"><span class="badge">${n.origin}</span> ${n.sourceUrl ? html`from <a href="${safeHref(n.sourceUrl)}" rel="noopener noreferrer nofollow">${n.sourceUrl}</a>` : ''}
 · stored ${when(n.createdAt)} · page ${n.status} · review <span class="review">${n.review}</span> · rules: ${verdictText(v.verdict)}</p>
${reviewButtons(n, `/nodes/${n.id}`)}
<form class="edit" method="post" action="/nodes/${n.id}">
<label for="text">Text</label>
<textarea id="text" name="text" rows="8" maxlength="20000">${text}</textarea>
<label for="words">Meta words (comma-separated; each must be a word of the imported markup)</label>
<input id="words" name="words" value="${words}">
<button type="submit">Save</button>
</form>
<h2>Changes</h2>
${v.audit.length === 0 ? html`<p>None yet.</p>` : html`<table class="audit"><thead><tr><th>When</th><th>Who</th><th>What</th><th>Before</th><th>After</th></tr></thead><tbody>
${v.audit.map((e) => html`<tr><td>${when(e.at)}</td><td>${e.who}</td><td>${e.action}</td><td>${shown(e, e.before, v.words)}</td><td>${shown(e, e.after, v.words)}</td></tr>`)}
</tbody></table>`}`;
  return layout(`Node ${n.id}`, 'nodes', body);
}

/** An audit value as the author reads it: meta word ids (kept as JSON) by name. */
function shown(e: AuditEntry, value: string | null, words: MetaWordInfo[]): string {
  if (value === null) return '';
  if (e.action !== 'meta') return value;
  const ids = JSON.parse(value) as number[];
  return ids.map((id) => words.find((w) => w.id === id)?.word ?? `#${id}`).sort().join(', ');
}
