import { pathToFileURL } from 'node:url';

/**
 * Runs the benches one after another and prints their Markdown tables (`npm run bench`), or the
 * ones named on the command line: `node dist/bench/run.js harvest frontier-memory`. Each bench is
 * loaded only when it runs; each also runs alone as `node dist/bench/<name>.js`.
 */

type Bench = () => Promise<string | void> | string | void;

export const BENCHES: Record<string, { what: string; load: () => Promise<Bench> }> = {
  roulette: { what: 'draws per second of the Fenwick wheel at 1,000,000 domains beside a linear scan', load: async () => (await import('./roulette.js')).main },
  extraction: { what: 'F1 of the extractors on two halves of the article-extraction benchmark and on the Readability pages (the fold gap), MB per CPU-second; the detailed table beside peers', load: async () => (await import('./extraction.js')).main },
  fetch: { what: 'pages/s and CPU per page of the Fetcher beside plain undici request()', load: async () => (await import('./fetch.js')).main },
  action: { what: 'ms a page of the narrative action alone on the crawl bench\'s generated pages and on ../shared\'s real ones, with and without meta words', load: async () => (await import('./action.js')).main },
  crawl: { what: 'crawl speed of anwc harvest beside the loopback ceiling, on SQLite and MySQL; flat cost as the web grows; start-up times', load: async () => (await import('./crawl.js')).main },
  harvest: { what: 'harvest rate of roulette, bfs and dfs; harvest speed beside the Fetcher; the walker under politeness', load: async () => (await import('./harvest.js')).main },
  focus: { what: 'pages with a node, and nodes on the topic, per page for bfs, roulette and its relevance rewards and order, beside an oracle that knows the good hosts', load: async () => (await import('./focus.js')).main },
  wheel: { what: 'harvest rate of roulette (thesis and relevance rewards), bfs and dfs on a web whose hosts differ in narrative, with 95 % intervals over seeds', load: async () => (await import('./wheel.js')).main },
  profile: { what: 'where the CPU of a 10,000-page SQLite harvest goes, by part of anwc (store, near-copies, parse, rules, HTTP, walker)', load: async () => (await import('./profile.js')).main },
  workers: { what: 'pages/s of 1, 2 and 4 harvest processes on one database where politeness is the limit, beside that ceiling', load: async () => (await import('./workers.js')).main },
  claims: { what: 'claims and completions per second of the shared frontier alone, on each store and on a Galera cluster', load: async () => (await import('./claims.js')).main },
  locate: { what: 'how soon the locator\'s local sort, global best-first and BFS reach the pages about a topic on the corpus web', load: async () => (await import('./locate.js')).main },
  linkcheck: { what: 'finds, requests, bytes and wall time of anwc maintain --site beside a GET-everything checker on generated webs of 200 and 2,000 pages', load: async () => (await import('./linkcheck.js')).main },
  maintain: { what: 'requests and bytes per link of anwc maintain beside a GET-everything link checker, on docs that reference the corpus', load: async () => (await import('./maintain.js')).main },
  'frontier-memory': { what: 'peak RSS and heap with 100,000 pending links over 5,000 domains beside 1,000 links', load: async () => (await import('./frontier-memory.js')).main },
};

/** `frontier` for frontier-memory: a bench may be named by any unambiguous start of its name. */
function pick(name: string): string | undefined {
  if (name in BENCHES) return name;
  const matches = Object.keys(BENCHES).filter((b) => b.startsWith(name));
  return matches.length === 1 ? matches[0] : undefined;
}

export async function main(args: string[] = []): Promise<number> {
  const names: string[] = [];
  for (const a of args) {
    const name = pick(a);
    if (!name) {
      process.stderr.write(`bench: no bench named ${JSON.stringify(a)}; choose from ${Object.keys(BENCHES).join(', ')}\n`);
      return 2;
    }
    names.push(name);
  }
  for (const name of names.length > 0 ? names : Object.keys(BENCHES)) {
    const started = performance.now();
    process.stdout.write(`# bench: ${name} — ${BENCHES[name]!.what}\n\n`);
    const out = await (await BENCHES[name]!.load())();
    // extraction prints its own table; the others return theirs.
    if (typeof out === 'string') process.stdout.write(out + '\n');
    process.stdout.write(`\n(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)\n\n`);
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main(process.argv.slice(2));
