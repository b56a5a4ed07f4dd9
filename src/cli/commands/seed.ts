import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { UserError } from '../../errors.js';
import { createProvider, DEFAULT_PER_QUERY, PROVIDER_NAMES, type ProviderConfig } from '../../search/index.js';
import { seed, type SeedEvent, type SeedSummary } from '../../search/seed.js';
import { openStore } from '../../store/open.js';
import { Agent } from 'undici';
import { AddressPolicy } from '../../web/address.js';
import { parseResolveMappings } from '../../web/resolve-mappings.js';
import { guardedConnector } from '../../web/connector.js';
import { userAgentHeader } from '../../web/user-agent.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';

interface SeedArgs {
  provider?: string;
  'search-endpoint'?: string;
  'per-query'?: number;
  all?: boolean;
  wiki?: string;
  'seed-file'?: string;
  meta?: string;
  'user-agent'?: string;
  contact?: string;
  'search-timeout'?: number;
  db?: string;
  json?: boolean;
  resolve?: (string | number)[];
}

/**
 * `anwc seed`: root URLs for the author's meta sets (thesis 3.2.1, 4.1), only for sets with a
 * word this provider has not searched yet unless --all. A search error (quota spent, key
 * refused, API down) ends the run with exit 2 after the summary; every query answered before it
 * stays stored, and the next `anwc seed` asks for the rest.
 */
export const seedCommand: CommandModule = {
  ...ABOUT.seed,
  builder: (y) =>
    withOptions(y, 'provider', 'search-endpoint', 'per-query', 'all', 'wiki', 'seed-file', 'meta', 'user-agent', 'contact', 'search-timeout', 'resolve', 'db', 'json')
      .example('anwc seed', `ask Wikipedia for ${DEFAULT_PER_QUERY} articles per new meta set`)
      .example('anwc seed --provider searxng --search-endpoint http://localhost:8888/', 'ask your own SearXNG instance')
      .example('anwc seed --provider file --seed-file seeds.txt --meta sea,storm', 'take root URLs from a file')
      .epilogue(
        [
          `Providers: ${PROVIDER_NAMES.join(', ')}. google needs GOOGLE_API_KEY and GOOGLE_CSE_ID (the API is closed ` +
            'to new customers and ends on 2027-01-01); brave needs BRAVE_API_KEY; searxng needs --search-endpoint.',
          'Exit codes: 0 seeded, 2 bad input or a search error (what was found before it is kept), 3 internal error, 130 interrupted.',
        ].join('\n\n'),
      ),
  handler: handler(async (argv: SeedArgs) => {
    const opt = (name: Parameters<typeof resolved>[1]) => resolved(argv as Record<string, unknown>, name).value;
    // Through opt(), so that a value from the --config file counts as the flag would.
    const given = (name: Parameters<typeof resolved>[1]) => opt(name) as string | undefined;
    const meta = given('meta');
    const config: ProviderConfig = {
      endpoint: given('search-endpoint'),
      wiki: String(opt('wiki')),
      file: given('seed-file'),
      meta: meta ? meta.split(',') : undefined,
      // The crawler's own User-Agent: Wikimedia asks for the tool's name and a contact.
      userAgent: userAgentHeader(String(opt('user-agent')), String(opt('contact'))),
      timeoutMs: Number(opt('search-timeout')) * 1000,
      dispatcher: resolvingAgent(((opt('resolve') as unknown[] | undefined) ?? []).map(String)),
    };
    const name = String(opt('provider'));
    // A flag that the chosen provider would ignore is a mistake worth one line, not a surprise.
    if (name !== 'file' && (config.file !== undefined || meta !== undefined)) {
      throw new UserError('--seed-file and --meta belong to --provider file', { value: name, fix: 'add --provider file, or drop them' });
    }
    if (name !== 'wikipedia' && argv.wiki !== undefined) {
      throw new UserError('--wiki belongs to --provider wikipedia', { value: name, fix: 'add --provider wikipedia, or drop --wiki' });
    }
    const provider = createProvider(name, config);
    // A seed file lists what the user chose: all of it, unless --per-query caps it.
    const perQueryGiven = resolved(argv as Record<string, unknown>, 'per-query');
    const perQuery = perQueryGiven.source !== 'default' ? Number(perQueryGiven.value) : (provider.ownQueries ? Number.MAX_SAFE_INTEGER : DEFAULT_PER_QUERY);
    const store = await openStore(String(opt('db')), { mustExist: true });
    let summary: SeedSummary;
    try {
      const ac = new AbortController();
      const stop = () => ac.abort(new Interrupted());
      process.once('SIGINT', stop);
      try {
        summary = await seed({ provider, store, perQuery, all: argv.all, signal: ac.signal, onEvent: (e) => print(e, argv.json) });
      } catch (err) {
        if (err instanceof Interrupted) {
          process.stderr.write('anwc: interrupted; the queries answered so far are stored\n');
          return EXIT.INTERRUPTED;
        }
        throw err;
      } finally {
        process.removeListener('SIGINT', stop);
      }
    } finally {
      await store.close();
      await config.dispatcher?.close();
    }
    printSummary(summary, argv.json);
    if (summary.stoppedBy) throw summary.stoppedBy;
    return EXIT.OK;
  }),
};

class Interrupted extends Error {}

/**
 * With --resolve, search requests dial the mapped addresses instead of asking DNS (a staging or
 * test endpoint). The endpoint is the user's own choice, so private addresses are allowed here.
 */
function resolvingAgent(entries: string[]): Agent | undefined {
  if (entries.length === 0) return undefined;
  const policy = new AddressPolicy({ resolve: parseResolveMappings(entries), allowPrivate: true });
  return new Agent({ connect: guardedConnector(policy) });
}

function print(e: SeedEvent, json?: boolean): void {
  if (json) {
    const { type, ...rest } = e;
    const fields = 'error' in rest ? { index: rest.index, total: rest.total, kind: rest.error.kind } : rest;
    process.stdout.write(`${JSON.stringify({ event: type, ...fields })}\n`);
    return;
  }
  if (e.type === 'plan') {
    const fresh = e.upToDate > 0 ? ` (${e.upToDate} already searched with this provider; --all asks them again)` : '';
    process.stdout.write(`${e.metaSets} meta sets, ${e.toAsk} to ask${fresh}\n`);
  } else if (e.type === 'query') {
    const urls = `${e.urls} URL${e.urls === 1 ? '' : 's'}`;
    const again = e.reused ? ', answered earlier in this run' : '';
    process.stdout.write(
      e.widened
        ? `  widened to "${e.terms}" → ${e.urls} more${again}\n`
        : `query ${e.index}/${e.total} "${e.terms}" → ${urls}${again}\n`,
    );
  } else {
    process.stdout.write(`stopped at meta set ${e.index}/${e.total}: ${e.error.kind === 'quota' ? 'the search quota is spent' : 'the search failed'}\n`);
  }
}

function printSummary(s: SeedSummary, json?: boolean): void {
  if (json) {
    const { stoppedBy, ...rest } = s;
    process.stdout.write(`${JSON.stringify({ event: 'summary', ...rest, stoppedBy: stoppedBy?.kind ?? null })}\n`);
    return;
  }
  const short = s.short > 0 ? `, ${s.short} with fewer URLs than asked` : '';
  process.stdout.write(
    `${s.provider}: ${s.asked} meta set${s.asked === 1 ? '' : 's'} seeded by ${s.queries} quer${s.queries === 1 ? 'y' : 'ies'}: ` +
      `${s.urls} URLs, ${s.newLinks} new to the frontier${short}\n`,
  );
}
