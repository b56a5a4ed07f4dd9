import { html } from 'hono/html';
import type { MetaWordInfo } from '../../store/store.js';
import type { JobView } from '../jobs.js';
import { layout, notice, when, type Html } from './layout.js';

export interface SteerView {
  proportion: number;
  words: MetaWordInfo[];
  job: JobView | null;
  note?: string;
  error?: string;
}

/** The author's controls: the mix, new markup, the meta words and their searches, seeding and harvesting. */
export function steerPage(v: SteerView): Html {
  const pct = Math.round(v.proportion * 100);
  const body = html`
${notice(v.note)}${notice(v.error, 'error')}
<section>
<h2>The mix</h2>
<form method="post" action="/mix" class="mix">
<label for="proportion">Crawler nodes in a pick: <output id="mix-value" for="proportion">${pct} %</output></label>
<input type="range" id="proportion" name="proportion" min="0" max="100" step="5" value="${pct}">
<button type="submit">Set</button>
</form>
</section>
<section>
<h2>Markup</h2>
<form method="post" action="/import" enctype="multipart/form-data">
<label>ANE markup file <input type="file" name="file" accept=".ane,.txt"></label>
<button type="submit">Import</button>
</form>
</section>
<section>
<h2>Crawl</h2>
<div id="job" aria-live="polite">${jobBlock(v.job)}</div>
<form method="post" action="/seed" class="inline"><button type="submit" id="seed">Seed</button></form>
<form method="post" action="/harvest" class="inline">
<label>Pages <input type="number" name="max-pages" min="1" max="1000000" placeholder="all"></label>
<button type="submit" id="harvest">Harvest</button>
</form>
<form method="post" action="/harvest/stop" class="inline"><button type="submit" id="stop">Stop</button></form>
</section>
<section>
<h2>Meta words</h2>
<table><thead><tr><th>Word</th><th>Stem</th><th>Nodes</th><th>Last searched</th></tr></thead><tbody>
${v.words.map((w) => html`<tr><td>${w.word}</td><td>${w.stem}</td><td>${w.nodes}</td><td>${when(w.lastSearchedAt)}</td></tr>`)}
</tbody></table>
</section>`;
  return layout('Steer', 'steer', body);
}

export function jobBlock(job: JobView | null): Html {
  if (!job) return html`<p>No seed or harvest has run since the studio started.</p>`;
  return html`<p class="job ${job.state}"><strong>${job.kind}</strong> ${job.state}${job.exitCode !== null ? html` (exit ${job.exitCode})` : ''} · started ${when(job.startedAt)}</p>
${job.lines.length > 0 ? html`<pre class="log">${job.lines.join('\n')}</pre>` : ''}`;
}
