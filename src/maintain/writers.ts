import { escapeHtml, escapeXml, safeHref } from '../html/escape.js';
import { reportDocument } from '../walk/actions/html.js';
import type { Check, MaintenanceReport } from './report.js';

/**
 * A maintenance task's index in the forms people and CI systems read: MOMspider's HTML index (how
 * and when it was made, a link to the previous index, each document of the infostructure with its
 * references, and the closing table of interesting items), JSON, JUnit XML (one test per link
 * tested, a failure for each broken one) and SARIF 2.1.0 (a result per broken or moved link, at
 * the page that holds it), for code-scanning views. Everything from the web is escaped.
 */

function statusText(c: Check | undefined): string {
  if (!c) return 'not tested';
  if (c.state === 'moved') return `moved${c.status ? ` (${c.status})` : ''} to ${c.movedTo ?? '?'}`;
  if (c.state === 'broken') return `broken: ${c.detail ?? c.status ?? '?'}`;
  if (c.state === 'skipped') return `skipped: ${c.detail ?? ''}`;
  if (c.state === 'unchecked') return 'not tested';
  return `${c.status ?? 'ok'}${c.method === 'HEAD' ? ' (HEAD)' : ''}`;
}

function changeSide(state: string, lastModified: string | undefined): string {
  const word = state === 'absent' ? 'not linked' : state;
  return lastModified ? `${word}, Last-Modified ${lastModified}` : word;
}

export function indexHtml(r: MaintenanceReport, opts: { previous?: string; options: string }): string {
  const anchors = new Map(r.docs.map((d, i) => [d.url, `doc${i}`]));
  const link = (url: string, text = url) => `<a href="${safeHref(url)}">${escapeHtml(text)}</a>`;
  const docs = r.docs.map((d) => {
    const refs = d.refs.map((ref) => {
      const c = r.checks[ref.url];
      const self = anchors.get(ref.url);
      const title = c?.title ? ` “${escapeHtml(c.title)}”` : '';
      return `<tr class="${escapeHtml(c?.state ?? 'unchecked')}"><td>${escapeHtml(ref.kind)}${ref.count > 1 ? ` ×${ref.count}` : ''}</td><td>${link(ref.url)}${title}${self ? ` <a href="#${self}">[entry]</a>` : ''}</td><td>${escapeHtml(statusText(c))}</td></tr>`;
    });
    const facts = [d.lastModified && `Last-Modified: ${d.lastModified}`, d.expires && `Expires: ${d.expires}`].filter(Boolean).map((x) => escapeHtml(String(x))).join(' · ');
    return `<section id="${anchors.get(d.url)}"><h2>${link(d.url, d.title || d.url)}</h2>${facts ? `<p>${facts}</p>` : ''}<table><thead><tr><th>kind</th><th>reference</th><th>status</th></tr></thead><tbody>${refs.join('')}</tbody></table></section>`;
  });
  const rows = (items: Check[], what: (c: Check) => string) => items.map((c) => `<tr><td>${link(c.url)}</td><td>${escapeHtml(what(c))}</td></tr>`).join('');
  const i = r.interesting;
  const closing = `<section id="interesting"><h2>Interesting changes</h2><table>
<tr><th colspan="2">Moved (${i.moved.length})</th></tr>${rows(i.moved, (c) => `to ${c.movedTo ?? '?'}`)}
<tr><th colspan="2">Broken (${i.broken.length})</th></tr>${i.broken.map((b) => `<tr><td>${link(b.check.url)}</td><td>${escapeHtml(statusText(b.check))}; on ${b.from.map((f) => escapeHtml(f)).join(', ')}</td></tr>`).join('')}
<tr><th colspan="2">Modified within ${r.task.changedDays ?? '-'} day(s) (${i.modified.length})</th></tr>${rows(i.modified, (c) => c.lastModified ?? '')}
<tr><th colspan="2">Expiring within ${r.task.expiredDays ?? '-'} day(s) (${i.expiring.length})</th></tr>${rows(i.expiring, (c) => c.expires ?? '')}
</table></section>`;
  const since = r.sinceLast ? [`<section id="since"><h2>Changed since the last run (${escapeHtml(r.sinceLast.previous)})</h2>${
    r.sinceLast.changes.length === 0 ? '<p>Nothing changed.</p>'
      : `<table><thead><tr><th>link</th><th>was</th><th>now</th></tr></thead><tbody>${r.sinceLast.changes.map((c) =>
        `<tr><td>${link(c.url)}</td><td>${escapeHtml(changeSide(c.was, c.wasLastModified))}</td><td>${escapeHtml(changeSide(c.now, c.lastModified))}</td></tr>`).join('')}</tbody></table>`
  }</section>`] : [];
  const facts: [string, string][] = [
    ['task', `${r.task.type} ${r.task.name}`], ['top', r.task.top], ['made', r.made], ['options', opts.options],
    ['documents', String(r.docs.length)], ['links tested', String(Object.keys(r.checks).length)],
  ];
  const previous = opts.previous ? [`<p><a href="${safeHref(opts.previous)}">the previous index</a></p>`] : [];
  return reportDocument(r.task.indexTitle ?? `anwc maintain: ${r.task.name}`, facts, [...previous, ...docs, closing, ...since]);
}

export function indexJson(r: MaintenanceReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

export function indexJunit(r: MaintenanceReport): string {
  const checks = Object.values(r.checks).filter((c) => c.state !== 'unchecked');
  const broken = new Map(r.interesting.broken.map((b) => [b.check.url, b.from]));
  const cases = checks.map((c) => {
    const name = `<testcase classname="${escapeXml(r.task.name)}" name="${escapeXml(c.url)}"`;
    if (c.state === 'broken') return `    ${name}><failure message="${escapeXml(statusText(c))}" type="broken-link">${escapeXml(`linked from ${(broken.get(c.url) ?? []).join(', ')}`)}</failure></testcase>`;
    if (c.state === 'skipped') return `    ${name}><skipped message="${escapeXml(statusText(c))}"/></testcase>`;
    return `    ${name}/>`;
  });
  const failures = checks.filter((c) => c.state === 'broken').length;
  const skipped = checks.filter((c) => c.state === 'skipped').length;
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
          ],
        },
      },
      invocations: [{ executionSuccessful: true, endTimeUtc: r.made }],
      results,
    }],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
