import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { UserError } from '../../errors.js';
import { harvestConstraints } from '../../harvest/harvest.js';
import { openStore } from '../../store/open.js';
import type { Link, Store } from '../../store/store.js';
import { ConstraintSet } from '../../walk/constraints/constraint.js';
import { describeOutcome, type WalkOutcome } from '../../walk/outcome.js';
import { normalizeUrl } from '../../web/url.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';
import { listFlag } from '../list-flag.js';

/** The stored outcome back as the walker's union (what `toStored` split into kind and detail). */
function outcomeOf(link: Link): WalkOutcome | undefined {
  return link.outcome ? ({ kind: link.outcome.kind, ...(link.outcome.detail ?? {}) } as WalkOutcome) : undefined;
}

async function explain(store: Store, link: Link, now = Date.now()): Promise<Record<string, unknown>> {
  const outcome = outcomeOf(link);
  const referrer = link.referrerUrl ?? undefined;
  const query = link.queryId ? await store.searchQuery(link.queryId) : undefined;
  const meta = link.queryId ? (await store.queryMetaWords(link.queryId)).map((m) => m.word) : [];
  const notBefore = link.notBefore ? `not before ${new Date(link.notBefore).toISOString()}` : '';
  const state =
    link.status === 'pending' && outcome?.kind === 'robots'
      ? `waiting for its robots.txt to be asked again (${[notBefore, `${link.attempts} of its own tries spent`].filter(Boolean).join(', ')}); last time ${describeOutcome(outcome)}`
    : link.status === 'pending' && link.attempts > 0 && outcome
      ? `waiting to be tried again (try ${link.attempts + 1}${notBefore ? `, ${notBefore}` : ''}); last time ${describeOutcome(outcome)}`
    : link.status === 'pending' ? 'waiting in the frontier: not walked yet'
    : link.status === 'leased' && (link.leaseExpiresAt ?? 0) <= now
      ? `leased by ${link.leaseOwner}, whose lease ran out at ${new Date(link.leaseExpiresAt ?? 0).toISOString()} (a run that stopped before it was done): the next run walks it`
    : link.status === 'leased' ? `being walked by ${link.leaseOwner} (lease until ${new Date(link.leaseExpiresAt ?? 0).toISOString()})`
    : outcome ? describeOutcome(outcome) : link.status;
  return { url: link.url, status: link.status, explanation: state, outcome, attempts: link.attempts, notBefore: link.notBefore, depth: link.depth, referrer, query: query && { provider: query.provider, terms: query.terms }, metaWords: meta };
}

export const whyCommand: CommandModule = {
  ...ABOUT.why,
  builder: (y) =>
    withOptions(y.positional('url', { type: 'string', describe: 'The URL to explain' }), 'db', 'json', 'hosts', 'same-host', 'max-depth')
      .example('anwc why https://en.wikipedia.org/wiki/Lighthouse', 'harvested? rejected? by what?')
      .example("anwc why http://shop.example/cart --hosts '*.example'", 'for a URL never stored: would this scope drop it?')
      .epilogue('Exit codes: 0 the URL is known to the database, 1 it is not (the reason given is what the scope would say), 2 bad input.'),
  handler: handler(async (argv: Record<string, unknown>) => {
    const n = normalizeUrl(String(argv.url));
    if (!n.ok) throw new UserError(`not a URL anwc walks: ${n.detail}`, { value: String(argv.url), fix: 'give an absolute http:// or https:// URL' });
    const store = await openStore(String(resolved(argv, 'db').value), { mustExist: true });
    try {
      const link = await store.linkByUrl(n.url);
      if (link) {
        const info = await explain(store, link);
        if (argv.json) process.stdout.write(`${JSON.stringify(info)}\n`);
        else {
          const lines = [`${link.url}`, `  ${String(info.explanation)}`, `  depth ${link.depth}${info.referrer ? `, found on ${String(info.referrer)}` : ', a seed'}`];
          if (info.query) {
            const q = info.query as { provider: string; terms: string };
            lines.push(`  lineage: ${q.provider} query "${q.terms}" → meta words ${(info.metaWords as string[]).join(', ') || '(none)'}`);
          }
          process.stdout.write(`${lines.join('\n')}\n`);
        }
        return EXIT.OK;
      }
      // Out-of-scope links are never stored, so an unknown URL is judged by the scope given now.
      const set = new ConstraintSet(
        harvestConstraints({ maxDepth: resolved(argv, 'max-depth').value as number, hosts: listFlag(resolved(argv, 'hosts').value), sameHost: false, fetcher: {} }),
      );
      const v = set.check({ url: new URL(n.url), depth: 0 }, 'uri');
      const reason = v.pass
        ? 'not in the database: no walked page\'s link to it was stored (none links to it, or the run that met it dropped it at discovery: its --hosts, --max-depth or --max-links-per-page), and the scope given would allow it'
        : `not in the database: the scope drops it at discovery, constraint "${v.constraint}" (${v.cost} class); out-of-scope links are not stored`;
      process.stdout.write(argv.json ? `${JSON.stringify({ url: n.url, status: 'unknown', explanation: reason })}\n` : `${n.url}\n  ${reason}\n`);
      return EXIT.PROBLEMS;
    } finally {
      await store.close();
    }
  }),
};
