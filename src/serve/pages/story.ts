import { html } from 'hono/html';
import { safeHref } from '../../html/escape.js';
import { basename } from 'node:path';
import type { StoredNode, StoryFile } from '../../store/store.js';
import { storyQuery, type StoryState } from '../story-state.js';
import { clickablePieces } from '../words.js';
import { layout, notice, type Html } from './layout.js';

export interface StoryView {
  state: StoryState;
  /** The node in each slot (undefined: deleted since the URL was made). */
  nodes: (StoredNode | undefined)[];
  /** The story's files and sections, whose nodes fill the slots in order. */
  files: StoryFile[];
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
${headed(v.files).map(({ slot, file, section }) => html`${file === undefined ? '' : html`<h2 class="file">${file}</h2>`}${section === undefined ? '' : html`<h3 class="section">${section}</h3>`}${paragraph(v.nodes[slot], slot, v, q)}`)}
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

/**
 * Each slot with the heading to show before it: the file's name where a file begins (when the
 * story has several) and the section's name where a named section begins.
 */
export function headed(files: StoryFile[]): { slot: number; file?: string; section?: string }[] {
  const out: { slot: number; file?: string; section?: string }[] = [];
  for (const f of files) {
    let fileShown = files.length < 2;
    for (const s of f.sections) {
      s.nodeIds.forEach((_, i) => {
        const head: { slot: number; file?: string; section?: string } = { slot: out.length };
        if (!fileShown) {
          head.file = basename(f.path);
          fileShown = true;
        }
        if (i === 0 && s.name !== null && s.name !== '') head.section = s.name;
        out.push(head);
      });
    }
  }
  return out;
}
