import { escapeHtml, safeHref } from '../../html/escape.js';
import type { Effects, PageView, RuntimeAction } from './action.js';

/**
 * The HTML report actions of appendix B. Each writes an escaped fragment to the walk's HTML
 * report (pages are hostile: every title, header and URL is escaped, and only http(s) URLs
 * become links). Encapsulating actions run the actions they surround and wrap what those wrote.
 */

export const htmlTrace = (): RuntimeAction => ({
  name: 'html-trace',
  run: (v) =>
    v.report.html(`<div class="trace depth-${v.link.depth}"><span class="status">${v.page.status}</span> <a href="${safeHref(v.page.finalUrl)}">${escapeHtml(v.page.finalUrl)}</a></div>`),
});

export const htmlShowUriOverview = (): RuntimeAction => ({
  name: 'html-show-uri-overview',
  run: (v) => {
    const h = v.page.headers;
    const rows: [string, string][] = [
      ['URL', v.page.finalUrl],
      ['title', v.title()],
      ['status', String(v.page.status)],
      ['content type', h['content-type'] ?? ''],
      ['last modified', h['last-modified'] ?? ''],
      ['expires', h.expires ?? ''],
      ['depth', String(v.link.depth)],
      ['links', String(v.isHtml() ? v.links().links.length : 0)],
    ];
    const body = rows.filter(([, x]) => x !== '').map(([k, x]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(x)}</td></tr>`).join('');
    v.report.html(`<section class="overview"><h2><a href="${safeHref(v.page.finalUrl)}">${escapeHtml(v.title() || v.page.finalUrl)}</a></h2><table>${body}</table></section>`);
  },
});

export const htmlWriteHeaders = (): RuntimeAction => ({
  name: 'html-write-headers',
  run: (v) => {
    const lines = Object.entries(v.page.headers).map(([k, x]) => `${k}: ${x}`).join('\n');
    v.report.html(`<pre class="headers">${escapeHtml(lines)}</pre>`);
  },
});

/** A no-op here: the report is written whole at the end of the walk. Kept so the paper's files run. */
export const htmlForceOutput = (): RuntimeAction => ({ name: 'html-force-output', run: () => undefined });

const LISTS: Record<string, { open: string; close: string; item: [string, string] }> = {
  enumerate: { open: '<ol>', close: '</ol>', item: ['<li>', '</li>'] },
  itemize: { open: '<ul>', close: '</ul>', item: ['<li>', '</li>'] },
  plain: { open: '<div class="plain">', close: '</div>', item: ['<div>', '</div>'] },
  menu: { open: '<menu>', close: '</menu>', item: ['<li>', '</li>'] },
  directory: { open: '<ul class="directory">', close: '</ul>', item: ['<li>', '</li>'] },
  definition: { open: '<dl>', close: '</dl>', item: ['<dd>', '</dd>'] },
};
export const ENUMERATION_STYLE_NAMES = Object.keys(LISTS);

/** Runs `inner` on the page with a report that collects their HTML, and returns it. */
async function collect(v: PageView, out: Effects, inner: RuntimeAction[]): Promise<string> {
  const parts: string[] = [];
  const view: PageView = { ...v, report: { text: (l) => v.report.text(l), html: (f) => parts.push(f) } };
  for (const a of inner) await a.run(view, out);
  return parts.join('');
}

/**
 * `html-with-enumeration STYLE`: the pages it surrounds become items of one list of that style in
 * the report (the list opens at the first page and closes at the end of the walk).
 */
export function htmlWithEnumeration(style: string, inner: RuntimeAction[]): RuntimeAction {
  const list = LISTS[style.toLowerCase()];
  if (!list) throw new RangeError(`unknown enumeration style ${style}; known: ${ENUMERATION_STYLE_NAMES.join(', ')}`);
  return {
    name: `html-with-enumeration ${style}`,
    run: async (v, out) => {
      const html = await collect(v, out, inner);
      v.report.html(`<!--list:${style.toLowerCase()}-->${list.item[0]}${html}${list.item[1]}`);
    },
  };
}

/** `html-enumerating-item`: what the surrounded actions wrote, as one item. */
export function htmlEnumeratingItem(inner: RuntimeAction[]): RuntimeAction {
  return { name: 'html-enumerating-item', run: async (v, out) => v.report.html(`<li>${await collect(v, out, inner)}</li>`) };
}

/** `html-with-paragraph`: what the surrounded actions wrote, as one paragraph. */
export function htmlWithParagraph(inner: RuntimeAction[]): RuntimeAction {
  return { name: 'html-with-paragraph', run: async (v, out) => v.report.html(`<p>${await collect(v, out, inner)}</p>`) };
}

/**
 * The report document: fragments in walk order, where consecutive items of one enumeration are
 * gathered into one list. Self-contained (inline style, no script), so it opens anywhere.
 */
export function reportDocument(title: string, facts: [string, string][], fragments: string[], style = ''): string {
  const body: string[] = [];
  let open: string | undefined;
  for (const f of fragments) {
    const m = /^<!--list:([a-z]+)-->/.exec(f);
    const style = m?.[1];
    if (open !== style) {
      if (open) body.push(LISTS[open]!.close);
      if (style) body.push(LISTS[style]!.open);
      open = style;
    }
    body.push(m ? f.slice(m[0].length) : f);
  }
  if (open) body.push(LISTS[open]!.close);
  const dl = facts.map(([k, x]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(x)}</dd>`).join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:15px/1.4 system-ui,sans-serif;margin:2em;max-width:70em}pre{background:#f4f4f4;padding:.5em;overflow:auto}
th{text-align:left;padding-right:1em}.trace{font-family:monospace}.status{color:#555}.depth-1{margin-left:1em}.depth-2{margin-left:2em}
.depth-3{margin-left:3em}.depth-4{margin-left:4em}dl.facts dt{font-weight:bold}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:0 1em}dl.facts dd{margin:0}${style}</style></head>
<body><h1>${escapeHtml(title)}</h1><dl class="facts">${dl}</dl>
${body.join('\n')}
</body></html>
`;
}
