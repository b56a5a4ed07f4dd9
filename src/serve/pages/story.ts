import { html } from 'hono/html';
import { safeHref } from '../../html/escape.js';
import type { StoredNode } from '../../store/store.js';
import { storyQuery, type StoryState } from '../story-state.js';
import { clickablePieces } from '../words.js';
import { layout, notice, type Html } from './layout.js';

export interface StoryView {
  state: StoryState;
  /** The node in each slot (undefined: deleted since the URL was made). */
  nodes: (StoredNode | undefined)[];
  stems: ReadonlySet<string>;
  proportion: number;
  /** The slot the last click swapped, to mark it. */
  swappedSlot: number | null;
  note?: string;
}

/** The evolving page (thesis chapter 5): the story, every meta word a link that swaps its node. */
export function storyPage(v: StoryView): Html {
  const q = storyQuery(v.state);
  const body = v.nodes.length === 0
    ? html`<p>No story yet: import ANE markup on <a href="/steer">Steer</a> (or run <code>anwc import FILE.ane</code>).</p>`
    : html`
<p class="hint">Click a highlighted word: its node is swapped for one drawn for that word, a crawler node with probability ${Math.round(v.proportion * 100)} % (<a href="/steer">mix</a>).
${v.state.history.length > 0 ? html` <a id="step-back" href="/story/back?${q}">Step back</a> (${v.state.history.length} swap${v.state.history.length === 1 ? '' : 's'})` : ''}</p>
${notice(v.note)}
<div class="story">
${v.nodes.map((n, slot) => paragraph(n, slot, v, q))}
</div>`;
  return layout('The evolving page', 'story', body);
}

function paragraph(n: StoredNode | undefined, slot: number, v: StoryView, q: string): Html {
  if (!n) return html`<p class="node gone" data-slot="${slot}">(this node is no longer stored)</p>`;
  const pieces = clickablePieces(n.text, v.stems).map((p) =>
    p.word === undefined ? p.text : html`<a class="word" href="/story/click?${q}&amp;slot=${slot}&amp;word=${encodeURIComponent(p.word)}">${p.text}</a>`);
  return html`<div class="node ${n.origin}${v.swappedSlot === slot ? ' swapped' : ''}" data-slot="${slot}" data-node="${n.id}">
<p>${pieces}</p>
<p class="meta"><span class="badge">${n.origin}</span> node ${n.id}${n.sourceUrl ? html` · from <a href="${safeHref(n.sourceUrl)}" rel="noopener noreferrer nofollow">${n.sourceUrl}</a>` : ''}${n.origin === 'crawler' ? html` · <a href="/nodes/${n.id}">curate</a>` : ''}</p>
</div>`;
}
