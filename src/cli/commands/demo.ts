import { resolve } from 'node:path';
import { ABOUT } from './about.js';
import type { CommandModule } from 'yargs';
import { demoAgent, isDemoHost, packageRoot, startDemoWeb, type DemoWeb } from '../../demo/index.js';
import { UserError } from '../../errors.js';
import { exportNodes } from '../../feed/export.js';
import { importFiles } from '../../feed/import.js';
import { harvest } from '../../harvest/harvest.js';
import { createProvider } from '../../search/index.js';
import { seed } from '../../search/seed.js';
import { openStore, redact } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { userAgentHeader } from '../../web/user-agent.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { progressView, type ProgressMode } from '../progress.js';
import { runSummaryLines } from '../report/summary.js';
import { handler } from '../run.js';
import { harvestOptionsFrom } from './harvest.js';

const DEMO_PORT = 8787;

async function startWeb(port: number): Promise<DemoWeb> {
  try {
    return await startDemoWeb({ port });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UserError(`port ${port} on 127.0.0.1 is taken`, { fix: 'give another with --port N' });
    }
    throw err;
  }
}

/** The demo keeps to its own hosts: a database that holds a real crawl is not the place for it. */
async function refuseForeignData(store: Store, db: string): Promise<void> {
  const top = await store.topDomains(50);
  const foreign = top.domains.find((d) => !isDemoHost(d.host));
  if (foreign) {
    throw new UserError(`${redact(db)} holds a crawl of real sites (${foreign.host}); the demo will not mix its pages into it`, {
      fix: 'give the demo its own database, e.g. --db sqlite:./demo.sqlite',
    });
  }
}

const say = (line: string) => process.stdout.write(`${line}\n`);

export const demoCommand: CommandModule = {
  ...ABOUT.demo,
  builder: (y) =>
    withOptions(y, 'db', 'seed', 'strategy', 'max-pages', 'progress')
      .option('port', { type: 'number', describe: `Port of the local demo web on 127.0.0.1 [default: ${DEMO_PORT}]` })
      .example('npm run demo', 'the same, built first')
      .example('anwc demo --db sqlite:./demo.sqlite --strategy bfs', 'compare with breadth-first')
      .epilogue('Rerunning resumes: markup and seeds already stored are not asked again, walked pages are not fetched again.'),
  handler: handler(async (argv: Record<string, unknown>) => {
    const db = String(resolved(argv, 'db').value);
    const port = (argv.port as number | undefined) ?? DEMO_PORT;
    const opts = harvestOptionsFrom({ ...argv, seed: argv.seed ?? 1, delay: 0.05 });
    const markup = resolve(packageRoot(), 'ane-markup', 'sample.ane');
    // The web first: a port already taken must not leave an empty database behind. Whatever fails
    // after, the finally closes the server, so no listener keeps the process alive.
    let web: DemoWeb | undefined;
    let store: Store | undefined;
    const agent = demoAgent();
    try {
      web = await startWeb(port);
      store = await openStore(db);
      await refuseForeignData(store, db);
      say(`anwc demo: ${web.hosts.length} sites and a search engine of our own writing on 127.0.0.1:${web.port}`);
      say(`  hosts ${web.hosts.join(', ')}, search.demo — names mapped to 127.0.0.1, no DNS, no traffic off this machine`);
      say(`  database ${redact(db)}\n`);

      say(`1. import ${markup}`);
      const imported = await importFiles(store, [markup]);
      for (const f of imported.files) {
        if (f.errors.length > 0) throw f.errors[0];
        say(`   ${f.status}: ${f.nodes} author nodes`);
      }

      say('2. seed: one AND query per meta set, asked of the local MediaWiki-shaped search engine');
      const provider = createProvider('wikipedia', { endpoint: web.searchEndpoint, dispatcher: agent, userAgent: userAgentHeader() });
      const seeded = await seed({ provider, store, perQuery: 10 });
      say(`   ${seeded.asked} meta sets asked (${seeded.upToDate} searched before), ${seeded.queries} queries, ${seeded.newLinks} new seed links`);

      say(`3. harvest: strategy ${opts.strategy}, seed ${opts.seed}, scope *.demo`);
      const before = await store.summary();
      const waiting = (before.links.pending ?? 0) + (before.links.leased ?? 0);
      if (waiting === 0) {
        say('   nothing new to walk: an earlier demo run walked the whole demo web (anwc stats shows it)');
      } else {
        const view = progressView(resolved(argv, 'progress').value as ProgressMode, opts.maxPages);
        const report = await harvest(
          store,
          { ...opts, hosts: ['*.demo'], fetcher: { ...opts.fetcher, resolve: web.resolve } },
          { onProgress: (s, x) => view.update(s, { ...x, queue: Math.max(0, waiting + s.newLinks - s.pagesDone) }) },
        );
        view.stop();
        for (const line of runSummaryLines(report.stats, report.stop, report.elapsedMs, report.wheel, report.givenUp)) say(`   ${line}`);
      }

      say('\n4. export: a few of the crawler nodes as ANE markup (anwc export --origin crawler for all)');
      let shown = '';
      await exportNodes(store, { origin: 'crawler', format: 'ane' }, (chunk) => {
        shown += chunk;
      });
      const lines = shown.split('\n');
      say(lines.slice(0, 24).map((l) => `   ${l}`).join('\n'));
      if (lines.length > 24) say(`   … ${lines.length - 24} more lines`);
      say('\nNext: anwc pick lighthouse · anwc mix 0.3 · anwc stats · anwc why <url> (all on the same database)');
      return EXIT.OK;
    } finally {
      await store?.close();
      await agent.close();
      await web?.close();
    }
  }),
};
