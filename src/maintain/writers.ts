import { escapeHtml, escapeXml, safeHref } from '../html/escape.js';
import { reportDocument } from '../walk/actions/html.js';
import { linkState, LINK_STATES, STATE_LABELS, totals, type Check, type LinkState, type MaintenanceReport } from './report.js';

/**
 * A maintenance task's index in the forms people and CI systems read: MOMspider's HTML index,
 * Markdown for CI logs, JSON, JUnit XML (one test per link tested, a failure for each broken one)
 * and SARIF 2.1.0 (a result per broken or moved link, at the page that holds it), for
 * code-scanning views. Everything from the web is escaped.
 */

/** Why a link was skipped, and for a refusal the fix. */
const SKIP_TEXT: Record<string, string> = {
  'address-refused': 'refused by the address policy (a private or loopback address): --resolve HOST:ADDRESS or --allow-private walks it',
  'robots.txt': 'disallowed by robots.txt',
  'out-of-scope': 'outside the scope (--hosts, or the task\'s URL checks)',
};

export function statusText(c: Check | undefined): string {
  if (!c) return 'not tested';
  if (c.state === 'moved') return `moved${c.status ? ` (${c.status})` : ''} to ${c.movedTo ?? '?'}`;
  if (c.state === 'broken') return `broken: ${c.detail ?? c.status ?? '?'}`;
  if (c.state === 'skipped') return SKIP_TEXT[c.detail ?? ''] ?? `excluded: ${c.detail ?? ''}`;
  if (c.state === 'unchecked') return `not tested${c.detail ? `: ${c.detail}` : ''}`;
  return `${c.status ?? 'ok'}${c.method === 'HEAD' ? ' (HEAD)' : ''}`;
}

function changeSide(state: string, lastModified: string | undefined): string {
  const word = state === 'absent' ? 'not linked' : state;
  return lastModified ? `${word}, Last-Modified ${lastModified}` : word;
}

/** Colours of the states; each is always said in words beside it, so the colour is never the only sign. */
const INDEX_STYLE = `.totals{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4em 1.2em}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.35em;background:#999}
.broken .swatch{background:#b00020}.moved .swatch{background:#b36b00}.refused .swatch{background:#6a1b9a}
.not-tested .swatch{background:#555}.excluded .swatch{background:#bbb}.ok .swatch{background:#1b5e20}
tr.broken td:first-child{border-left:3px solid #b00020;padding-left:.4em}tr.moved td:first-child{border-left:3px solid #b36b00;padding-left:.4em}
details>summary{cursor:pointer}td{vertical-align:top;padding-right:1em}`;

/**
 * MOMspider's index, read from the top: the totals by state, then what needs fixing (broken,
 * moved), then what was not checked and why (refused, not tested), each link once with the pages
 * that hold it behind a disclosure; then the recently modified and expiring documents, what
 * changed since the last run, and the documents with their references, folded.
 */
export function indexHtml(r: MaintenanceReport, opts: { previous?: string; options: string }): string {
  const t = totals(r);
  const link = (url: string, text = url) => `<a href="${safeHref(url)}">${escapeHtml(text)}</a>`;
  const onPages = (url: string) => {
    const from = r.referrers[url] ?? [];
    if (from.length === 0) return url === r.task.top ? 'the top document' : '';
    return `<details><summary>on ${from.length} page${from.length === 1 ? '' : 's'}</summary><ul>${from.map((f) => `<li>${link(f)}</li>`).join('')}</ul></details>`;
  };
  const byState = (state: LinkState) => Object.values(r.checks).filter((c) => linkState(c) === state);
  const table = (checks: Check[]) =>
    `<table><thead><tr><th>link</th><th>what was found</th><th>linked</th></tr></thead><tbody>${checks.map((c) =>
      `<tr class="${linkState(c)}"><td>${link(c.url)}</td><td>${escapeHtml(statusText(c))}</td><td>${onPages(c.url)}</td></tr>`).join('')}</tbody></table>`;
  const heading: Record<LinkState, string> = { broken: 'Broken', moved: 'Moved', refused: 'Refused by this run\'s settings or robots.txt', 'not-tested': 'Not tested', excluded: 'Excluded by the scope', ok: 'OK' };
  const totalsHtml = `<section id="totals"><h2>Totals</h2><ul class="totals">${LINK_STATES.map((s) =>
    `<li class="${s}"><span class="swatch" aria-hidden="true"></span><strong>${t[s]}</strong> ${escapeHtml(STATE_LABELS[s])}</li>`).join('')
  }${r.task.changedDays === undefined ? '' : `<li><strong>${t.modified}</strong> modified within ${r.task.changedDays} day(s)</li>`}${
    r.task.expiredDays === undefined ? '' : `<li><strong>${t.expiring}</strong> expiring within ${r.task.expiredDays} day(s)</li>`}</ul></section>`;
  const problems = (['broken', 'moved', 'refused', 'not-tested'] as const).map((s) => {
    const checks = byState(s);
    return checks.length === 0 ? '' : `<section id="${s}"><h2>${heading[s]} (${checks.length})</h2>${table(checks)}</section>`;
  }).filter(Boolean);
  const excluded = byState('excluded');
  const excludedHtml = excluded.length === 0 ? [] : [`<section id="excluded"><details><summary>${heading.excluded} (${excluded.length})</summary>${table(excluded)}</details></section>`];
  const rows = (items: Check[], what: (c: Check) => string) => items.map((c) => `<tr><td>${link(c.url)}</td><td>${escapeHtml(what(c))}</td></tr>`).join('');
  const i = r.interesting;
  const interesting = `<section id="interesting"><h2>Interesting changes</h2><table>
<tr><th colspan="2">Modified within ${r.task.changedDays ?? '-'} day(s) (${i.modified.length})</th></tr>${rows(i.modified, (c) => c.lastModified ?? '')}
<tr><th colspan="2">Expiring within ${r.task.expiredDays ?? '-'} day(s) (${i.expiring.length})</th></tr>${rows(i.expiring, (c) => c.expires ?? '')}
</table></section>`;
  const since = r.sinceLast ? [`<section id="since"><h2>Changed since the last run (${escapeHtml(r.sinceLast.previous)})</h2>${
    r.sinceLast.changes.length === 0 ? '<p>Nothing changed.</p>'
      : `<table><thead><tr><th>link</th><th>was</th><th>now</th></tr></thead><tbody>${r.sinceLast.changes.map((c) =>
        `<tr><td>${link(c.url)}</td><td>${escapeHtml(changeSide(c.was, c.wasLastModified))}</td><td>${escapeHtml(changeSide(c.now, c.lastModified))}</td></tr>`).join('')}</tbody></table>`
  }</section>`] : [];
  const anchors = new Map(r.docs.map((d, k) => [d.url, `doc${k}`]));
  const docs = r.docs.map((d) => {
    const refs = d.refs.map((ref) => {
      const c = r.checks[ref.url];
      const self = anchors.get(ref.url);
      const title = c?.title ? ` “${escapeHtml(c.title)}”` : '';
      return `<tr class="${c ? linkState(c) : 'not-tested'}"><td>${escapeHtml(ref.kind)}${ref.count > 1 ? ` ×${ref.count}` : ''}</td><td>${link(ref.url)}${title}${self ? ` <a href="#${self}">[entry]</a>` : ''}</td><td>${escapeHtml(statusText(c))}</td></tr>`;
    });
    const facts = [d.lastModified && `Last-Modified: ${d.lastModified}`, d.expires && `Expires: ${d.expires}`].filter(Boolean).map((x) => escapeHtml(String(x))).join(' · ');
    return `<details id="${anchors.get(d.url)}"><summary>${escapeHtml(d.title || d.url)} — ${escapeHtml(d.url)} (${d.refs.length} reference${d.refs.length === 1 ? '' : 's'})</summary>${facts ? `<p>${facts}</p>` : ''}<table><thead><tr><th>kind</th><th>reference</th><th>status</th></tr></thead><tbody>${refs.join('')}</tbody></table></details>`;
  });
  const documents = `<section id="documents"><h2>Documents (${r.docs.length})</h2>${docs.join('\n')}</section>`;
  const facts: [string, string][] = [
    ['task', `${r.task.type} ${r.task.name}`], ['top', r.task.top], ['made', r.made], ['options', opts.options],
    ['documents', String(r.docs.length)], ['links', String(Object.keys(r.checks).length)],
  ];
  const previous = opts.previous ? [`<p><a href="${safeHref(opts.previous)}">the previous index</a></p>`] : [];
  return reportDocument(r.task.indexTitle ?? `anwc maintain: ${r.task.name}`, facts, [totalsHtml, ...previous, ...problems, ...excludedHtml, interesting, ...since, documents], INDEX_STYLE);
}

/**
 * The index for a CI log or a pull-request comment (lychee's Markdown output): the totals, then
 * each broken, moved, refused and not-tested link once with the number of pages that hold it.
 */
export function indexMarkdown(r: MaintenanceReport): string {
  const t = totals(r);
  const cell = (x: string) => x.replace(/[\\|`*_[\]<>#]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
  const lines = [
    `# ${cell(r.task.indexTitle ?? `anwc maintain: ${r.task.name}`)}`, '',
    `${r.docs.length} document(s) under ${cell(r.task.top)}, ${Object.keys(r.checks).length} link(s), ${r.made}`, '',
    '| state | links |', '| --- | ---: |',
    ...LINK_STATES.map((s) => `| ${STATE_LABELS[s]} | ${t[s]} |`),
    ...(r.task.changedDays === undefined ? [] : [`| modified within ${r.task.changedDays} day(s) | ${t.modified} |`]),
    ...(r.task.expiredDays === undefined ? [] : [`| expiring within ${r.task.expiredDays} day(s) | ${t.expiring} |`]),
  ];
  for (const s of ['broken', 'moved', 'refused', 'not-tested'] as const) {
    const checks = Object.values(r.checks).filter((c) => linkState(c) === s);
    if (checks.length === 0) continue;
    lines.push('', `## ${STATE_LABELS[s]} (${checks.length})`, '', '| link | what was found | pages |', '| --- | --- | ---: |');
    for (const c of checks) lines.push(`| ${cell(c.url)} | ${cell(statusText(c))} | ${(r.referrers[c.url] ?? []).length} |`);
  }
  return `${lines.join('\n')}\n`;
}

export function indexJson(r: MaintenanceReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

export function indexJunit(r: MaintenanceReport): string {
  // Every link is a case: one not tested is skipped with why, as a refused or excluded one is.
  const checks = Object.values(r.checks);
  const cases = checks.map((c) => {
    const name = `<testcase classname="${escapeXml(r.task.name)}" name="${escapeXml(c.url)}"`;
    if (c.state === 'broken') return `    ${name}><failure message="${escapeXml(statusText(c))}" type="broken-link">${escapeXml(`linked from ${(r.referrers[c.url] ?? []).join(', ')}`)}</failure></testcase>`;
    if (c.state === 'skipped' || c.state === 'unchecked') return `    ${name}><skipped message="${escapeXml(statusText(c))}"/></testcase>`;
    return `    ${name}/>`;
  });
  const failures = checks.filter((c) => c.state === 'broken').length;
  const skipped = checks.filter((c) => c.state === 'skipped' || c.state === 'unchecked').length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="anwc maintain" tests="${checks.length}" failures="${failures}">
  <testsuite name="${escapeXml(`${r.task.type} ${r.task.name}`)}" tests="${checks.length}" failures="${failures}" skipped="${skipped}" timestamp="${r.made}">
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}

export function indexSarif(r: MaintenanceReport, version: string): string {
  const results = [
    ...r.interesting.broken.flatMap((b) =>
      (b.from.length ? b.from : [r.task.top]).map((from) => ({
        ruleId: 'broken-link', level: 'error', message: { text: `${b.check.url}: ${statusText(b.check)}` },
        locations: [{ physicalLocation: { artifactLocation: { uri: from } } }],
      })),
    ),
    ...r.interesting.moved.map((c) => ({
      ruleId: 'moved-link', level: 'warning', message: { text: `${c.url} ${statusText(c)}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: c.url } } }],
    })),
    // What was not checked is said too, as notes: a scan that left links out is not a clean one.
    ...Object.values(r.checks).filter((c) => ['refused', 'not-tested'].includes(linkState(c))).map((c) => ({
      ruleId: `link-${linkState(c)}`, level: 'note', message: { text: `${c.url}: ${statusText(c)}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: (r.referrers[c.url] ?? [r.task.top])[0] } } }],
    })),
  ];
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'anwc', version, rules: [
            { id: 'broken-link', shortDescription: { text: 'A link to a document that cannot be had (an error status or a failed request)' } },
            { id: 'moved-link', shortDescription: { text: 'A link to a document that has moved (a redirect)' } },
            { id: 'link-refused', shortDescription: { text: 'A link this run\'s settings or robots.txt kept it from checking' } },
            { id: 'link-not-tested', shortDescription: { text: 'A link the run did not get to check (time, budget, a failing host)' } },
          ],
        },
      },
      invocations: [{ executionSuccessful: true, endTimeUtc: r.made }],
      results,
    }],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
