// The crawl bench's Crawlee row: CheerioCrawler over the generated web, as anwc harvest walks it
// (robots.txt obeyed, the same pages in flight, every <p> read), nothing stored. Run by bench/crawl.ts
// with the scratch folder that holds @crawlee/cheerio first on NODE_PATH-like resolution (PEERS_DIR).
//   node crawlee-crawl.mjs PEERS_DIR PORT HOSTS CONCURRENCY
import dns from 'node:dns';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [dir, port, hosts, concurrency] = process.argv.slice(2);
// The generated web's names are ours: they reach loopback, and no other name is looked up.
const lookup = dns.lookup;
dns.lookup = (host, options, callback) => {
  const cb = typeof options === 'function' ? options : callback;
  const all = typeof options === 'object' && options?.all;
  if (!host.endsWith('.test')) return cb(Object.assign(new Error(`no DNS in benches (${host})`), { code: 'ENOTFOUND' }));
  return all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
};
void lookup;

const require = createRequire(join(dir, 'package.json'));
const { CheerioCrawler, Configuration } = require('@crawlee/cheerio');
let pages = 0;
let paragraphs = 0;
const crawler = new CheerioCrawler({
  minConcurrency: Number(concurrency),
  maxConcurrency: Number(concurrency),
  maxRequestRetries: 0,
  respectRobotsTxtFile: true,
  useSessionPool: false,
  async requestHandler({ $, enqueueLinks }) {
    pages++;
    $('p').each((_, p) => { if ($(p).text().trim() !== '') paragraphs++; });
    await enqueueLinks({ regexps: [/^http:\/\/h\d+\.graded\.test(:\d+)?\//] });
  },
}, new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 0 }));
await crawler.run(Array.from({ length: Number(hosts) }, (_, h) => `http://h${h}.graded.test:${port}/`));
process.stdout.write(`${JSON.stringify({ pages, paragraphs })}\n`);
