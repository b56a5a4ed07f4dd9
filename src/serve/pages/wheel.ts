import { html } from 'hono/html';
import type { MetaWordInfo, Run, TopDomains } from '../../store/store.js';
import { pieSlices } from '../pie.js';
import type { Timeline } from '../timeline.js';
import { layout, when, type Html } from './layout.js';

export interface WheelView {
  top: TopDomains;
  timeline: Timeline;
  words: MetaWordInfo[];
  runs: Run[];
}

/** Domains drawn in the pie; the rest of the wheel is one slice. */
export const PIE_DOMAINS = 10;
const R = 120;

/** The wheel as figure 5 of the thesis draws it, with its table; nodes per meta word; the runs. */
export function wheelPage(v: WheelView): Html {
  const words = [...v.words].sort((a, b) => b.nodes - a.nodes || a.word.localeCompare(b.word));
  const most = Math.max(1, ...words.map((w) => w.nodes));
  const body = html`
<section>
<h2>Domain shares of the roulette wheel</h2>
<div id="wheel">${wheelFigure(v.top)}</div>
</section>
<section>
<h2>Nodes found per domain over time</h2>
${timelineFigure(v.timeline, new Map(v.top.domains.slice(0, PIE_DOMAINS).map((d, i) => [d.host, i])))}
</section>
<section>
<h2>Nodes per meta word</h2>
<table class="bars"><thead><tr><th>Meta word</th><th>Nodes</th><th aria-hidden="true"></th></tr></thead><tbody>
${words.map((w) => html`<tr><td>${w.word}</td><td>${w.nodes}</td><td aria-hidden="true"><svg width="200" height="12" role="presentation"><rect width="${Math.round((200 * w.nodes) / most)}" height="12"></rect></svg></td></tr>`)}
</tbody></table>
</section>
<section>
<h2>Runs</h2>
<table><thead><tr><th>Run</th><th>Started</th><th>Ended</th><th>Pages</th><th>Nodes</th><th>New nodes</th></tr></thead><tbody>
${v.runs.map((r) => html`<tr><td>${r.id}</td><td>${when(r.startedAt)}</td><td>${when(r.endedAt)}</td><td>${stat(r, 'pagesDone')}</td><td>${stat(r, 'nodes')}</td><td>${stat(r, 'newNodes')}</td></tr>`)}
</tbody></table>
</section>`;
  return layout('Wheel', 'wheel', body);
}

function stat(r: Run, key: string): string {
  const v = r.stats?.[key];
  return typeof v === 'number' ? String(v) : '';
}

/** The pie and its table, also sent alone to a page that follows a harvest live. */
export function wheelFigure(top: TopDomains): Html {
  const shown = top.domains.slice(0, PIE_DOMAINS);
  const rest = top.totalScore - shown.reduce((a, d) => a + d.score, 0);
  const items = [...shown.map((d) => ({ label: d.host, value: d.score })), ...(rest > 1e-9 ? [{ label: 'other domains', value: rest }] : [])];
  const slices = pieSlices(items, R);
  if (slices.length === 0) return html`<p>The wheel is empty: no domain yet.</p>`;
  return html`<svg class="pie" viewBox="0 0 ${2 * R} ${2 * R}" width="${2 * R}" height="${2 * R}" role="img" aria-labelledby="wheel-title">
<title id="wheel-title">Each domain's share of the roulette wheel</title>
${slices.map((s, i) => html`<path class="slice s${i % 11}" d="${s.path}"><title>${s.label}: ${(s.share * 100).toFixed(1)} %</title></path>`)}
</svg>
<table class="wheel-table"><thead><tr><th>Domain</th><th>Score</th><th>Share</th><th>Pages</th><th>Nodes</th></tr></thead><tbody>
${slices.map((s, i) => {
    const d = shown[i];
    return html`<tr><td><span class="key s${i % 11}" aria-hidden="true"></span>${s.label}</td><td>${s.value.toFixed(0)}</td><td>${(s.share * 100).toFixed(1)} %</td><td>${d?.pages ?? ''}</td><td>${d?.nodes ?? ''}</td></tr>`;
  })}
</tbody></table>`;
}

const BAR_W = 28;
const CHART_H = 140;

/** Stacked bars, a span each, a domain in its colour of the pie (grey when it has no slice of its own); the table holds the same counts. */
function timelineFigure(t: Timeline, colours: ReadonlyMap<string, number>): Html {
  const colour = (host: string) => colours.get(host) ?? 10;
  if (t.starts.length === 0) return html`<p>No crawler node yet.</p>`;
  const totals = t.starts.map((_, i) => t.series.reduce((a, s) => a + s.counts[i]!, 0));
  const most = Math.max(1, ...totals);
  const bars = t.starts.map((_, i) => {
    let y = CHART_H;
    return t.series.map((s) => {
      const h = (CHART_H * s.counts[i]!) / most;
      y -= h;
      return h > 0 ? html`<rect class="s${colour(s.host)}" x="${i * (BAR_W + 4)}" y="${y.toFixed(1)}" width="${BAR_W}" height="${h.toFixed(1)}"><title>${s.host}: ${s.counts[i]}</title></rect>` : '';
    });
  });
  const label = (at: number) => spanLabel(at, t.spanMs);
  return html`<svg class="timeline" width="${t.starts.length * (BAR_W + 4)}" height="${CHART_H}" role="img" aria-label="Nodes found per domain in each span of time; the table below holds the counts">${bars}</svg>
<div class="scroll"><table class="timeline-table"><thead><tr><th>Domain</th>${t.starts.map((at) => html`<th>${label(at)}</th>`)}</tr></thead><tbody>
${t.series.map((s) => html`<tr><td><span class="key s${colour(s.host)}" aria-hidden="true"></span>${s.host}</td>${s.counts.map((c) => html`<td>${c}</td>`)}</tr>`)}
</tbody></table></div>`;
}

/** A span's start as short as its length allows: the time of day for spans under a day, else the date. */
function spanLabel(at: number, spanMs: number): string {
  const iso = new Date(at).toISOString();
  return spanMs < 86_400_000 ? iso.slice(11, spanMs < 1000 ? 23 : spanMs < 60_000 ? 19 : 16) : iso.slice(0, 10);
}
