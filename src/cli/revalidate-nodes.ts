import { foldText, stillOnPage, verdictOfOutcome } from '../maintain/revalidate.js';
import { openStore } from '../store/open.js';
import type { LinkOutcome, NodeStatus, Store, UrlCheck } from '../store/store.js';
import { actionsActivity } from '../walk/actions/activity.js';
import type { RuntimeAction } from '../walk/actions/action.js';
import { validatorsOf } from '../web/validators.js';
import { EXIT } from './exit.js';
import { resolved } from './options.js';
import { safetyConstraints, walkCommand, walkRunOptionsFrom } from './walk-run.js';

/**
 * `anwc maintain --nodes`: the source page of every crawler node is asked again, with the
 * validators of the last check (a 304 says nothing changed). A node whose page is gone (404, 410,
 * a host that no longer resolves) or no longer holds its text is marked, never deleted: `pick`
 * leaves gone nodes out, and the author decides.
 */

/** The scope under which the store keeps the last check of each source page. */
const SCOPE = 'nodes';

interface SourceResult {
  url: string;
  verdict: NodeStatus | 'unchanged' | 'unknown';
  why?: string;
  nodes: number;
  /** Of them, how many no longer stand on the page (a page that was read). */
  changed?: number;
}

export async function revalidateNodes(argv: Record<string, unknown>): Promise<number> {
  const store = await openStore(String(resolved(argv, 'db').value), { mustExist: true });
  try {
    const sources = await store.nodeSources();
    if (sources.length === 0) {
      process.stderr.write('anwc: no crawler node to revalidate (anwc harvest stores them)\n');
      return EXIT.OK;
    }
    return await check(argv, store, sources);
  } finally {
    await store.close();
  }
}

async function check(argv: Record<string, unknown>, store: Store, sources: string[]): Promise<number> {
  const before = new Map((await store.urlChecks(SCOPE)).map((c) => [c.url, c]));
  const now = Date.now();
  const opts = walkRunOptionsFrom(argv, 'bfs');
  // The last revalidation's validators, else those the harvest kept with the page's link.
  const validators = new Map<string, { etag?: string; lastModified?: string }>();
  for (const url of sources) {
    const c = before.get(url) ?? (await store.linkByUrl(url));
    if (c?.etag || c?.lastModified) validators.set(url, { etag: c.etag ?? undefined, lastModified: c.lastModified ?? undefined });
  }
  opts.validators = (url) => validators.get(url);
  const results = new Map<string, SourceResult>();
  const kept: UrlCheck[] = [];
  const action: RuntimeAction = {
    name: 'revalidate-nodes',
    run: async (v) => {
      const url = v.link.url;
      const nodes = await store.nodes({ origin: 'crawler', sourceUrl: url });
      const page = foldText(v.text());
      const left = nodes.filter((n) => !stillOnPage(n.text, page)).map((n) => n.id);
      const there = nodes.filter((n) => !left.includes(n.id)).map((n) => n.id);
      await store.setNodeStatus(left, 'changed', now);
      await store.setNodeStatus(there, 'ok', now);
      const verdict: NodeStatus = left.length > 0 ? 'changed' : 'ok';
      results.set(url, { url, verdict, nodes: nodes.length, changed: left.length, ...(left.length ? { why: `${left.length} of ${nodes.length} node(s) no longer on the page` } : {}) });
      const ask = validatorsOf(v.page.headers);
      kept.push({ url, state: verdict, status: v.page.status, detail: null, etag: ask?.etag ?? null, lastModified: ask?.lastModified ?? null, checkedAt: now });
    },
  };
  const activity = actionsActivity('revalidate-nodes', safetyConstraints(argv, opts), [action], { text: () => undefined, html: () => undefined });
  const { report: run, store: state } = await walkCommand(argv, activity, sources, opts, 'maintain --nodes');
  try {
    const outcomes = new Map<string, LinkOutcome | undefined>();
    for (const url of sources) if (!results.has(url)) outcomes.set(url, (await state.linkByUrl(url))?.outcome ?? undefined);
    // A machine whose resolver finds no name at all is offline, not a web whose hosts all died.
    const answered = results.size > 0 || [...outcomes.values()].some((o) => o && ['http-error', 'not-modified', 'redirected'].includes(o.kind));
    for (const [url, outcome] of outcomes) {
      let verdict = outcome ? verdictOfOutcome(outcome.kind, outcome.detail ?? {}) : undefined;
      if (!answered && outcome?.kind === 'failed') verdict = undefined;
      const nodes = await store.nodes({ origin: 'crawler', sourceUrl: url });
      const ids = nodes.map((n) => n.id);
      const last = before.get(url);
      if (verdict === 'unchanged') {
        // Checked, and as it was: each node keeps its status, with the time of this check.
        for (const status of new Set(nodes.map((n) => n.status))) await store.setNodeStatus(nodes.filter((n) => n.status === status).map((n) => n.id), status, now);
        results.set(url, { url, verdict, nodes: ids.length });
        const v = validators.get(url);
        kept.push(last ? { ...last, checkedAt: now } : { url, state: 'ok', status: 304, detail: null, etag: v?.etag ?? null, lastModified: v?.lastModified ?? null, checkedAt: now });
      } else if (verdict) {
        await store.setNodeStatus(ids, verdict.status, now);
        results.set(url, { url, verdict: verdict.status, why: verdict.why, nodes: ids.length });
        kept.push({ url, state: verdict.status, status: null, detail: verdict.why, etag: null, lastModified: null, checkedAt: now });
      } else {
        const why = !outcome ? 'not reached' : !answered && outcome.kind === 'failed' ? 'no server answered: is this machine offline?'
          : `${outcome.kind}${outcome.detail?.status ? ` ${String(outcome.detail.status)}` : outcome.detail?.failure ? ` ${String(outcome.detail.failure)}` : ''}`;
        results.set(url, { url, verdict: 'unknown', why, nodes: ids.length });
      }
    }
  } finally {
    await state.close();
  }
  await store.saveUrlChecks(SCOPE, kept, false);
  return finish(argv, [...results.values()], run.stop === 'interrupted');
}

function finish(argv: Record<string, unknown>, results: SourceResult[], interrupted: boolean): number {
  const count = (v: SourceResult['verdict']) => results.filter((r) => r.verdict === v);
  const nodes = (rs: SourceResult[], key: 'nodes' | 'changed' = 'nodes') => rs.reduce((a, r) => a + (r[key] ?? 0), 0);
  const changed = count('changed');
  const gone = count('gone');
  if (argv.json) process.stdout.write(`${JSON.stringify({ sources: results.length, results }, null, 2)}\n`);
  else for (const r of [...gone, ...changed]) process.stdout.write(`${r.verdict}\t${r.url}\t${r.why ?? ''}\t${r.changed ?? r.nodes} node(s)\n`);
  const unknown = count('unknown');
  process.stderr.write(
    `anwc: nodes: ${results.length} source page(s) checked: ${count('ok').length} hold their text, ${count('unchanged').length} not modified, ` +
      `${changed.length} changed (${nodes(changed, 'changed')} node(s)), ${gone.length} gone (${nodes(gone)} node(s))` +
      `${unknown.length ? `, ${unknown.length} could not be checked now (${unknown.map((r) => r.why).filter((w, i, a) => a.indexOf(w) === i).join(', ')}); their nodes keep their status` : ''}\n`,
  );
  if (interrupted) return EXIT.INTERRUPTED;
  return changed.length + gone.length > 0 ? EXIT.PROBLEMS : EXIT.OK;
}
