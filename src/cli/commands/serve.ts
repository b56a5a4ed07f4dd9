import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { serve as listen, type ServerType } from '@hono/node-server';
import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { isDemoHost, startDemoWeb, type DemoWeb } from '../../demo/index.js';
import { UserError } from '../../errors.js';
import { studioApp } from '../../serve/app.js';
import { servedNames } from '../../serve/hosts.js';
import { Jobs, type JobKind } from '../../serve/jobs.js';
import { openStore, redact } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';

const DEFAULT_PORT = 8700;
const DEMO_PORT = 8787;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The port of the demo web a database's crawl was made on, when it holds the demo's crawl and
 * nothing else: the studio brings that web back so that seeding and harvesting work offline.
 */
async function demoPortOf(store: Store): Promise<number | undefined> {
  const top = await store.topDomains(1000);
  if (top.domains.length === 0 || !top.domains.every((d) => isDemoHost(d.host))) return undefined;
  const [source] = await store.nodeSources();
  const port = source === undefined ? NaN : Number(new URL(source).port);
  return Number.isInteger(port) && port > 0 ? port : DEMO_PORT;
}

function jobArgs(config: string | undefined, web: DemoWeb | undefined): Record<JobKind, string[]> {
  const common = config === undefined ? [] : ['--config', config];
  if (!web) return { seed: common, harvest: common };
  const resolveArgs = web.resolve.flatMap((m) => ['--resolve', m]);
  return {
    seed: [...common, '--provider', 'wikipedia', '--search-endpoint', web.searchEndpoint, ...resolveArgs],
    harvest: [...common, '--hosts', '*.demo', ...resolveArgs],
  };
}

function listenOn(app: ReturnType<typeof studioApp>, host: string, port: number): Promise<ServerType> {
  return new Promise((ok, fail) => {
    const server = listen({ fetch: app.fetch, hostname: host, port }, () => ok(server));
    server.once('error', (err: NodeJS.ErrnoException) => fail(err.code === 'EADDRINUSE'
      ? new UserError(`port ${port} on ${host} is taken`, { value: String(port), fix: 'give another with --port N' })
      : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND'
        ? new UserError(`cannot listen on ${host}: no such address on this machine`, { value: host, fix: 'give one of its addresses with --host, e.g. 127.0.0.1' })
        : err));
  });
}

export const serveCommand: CommandModule = {
  ...ABOUT.serve,
  builder: (y) =>
    withOptions(y, 'db')
      .option('port', { type: 'string', describe: `Port to listen on [default: ${DEFAULT_PORT}]` })
      .option('host', { type: 'string', describe: 'Address to listen on, and the name the studio answers to besides localhost and IP addresses; anything but loopback needs the token [default: 127.0.0.1]' })
      .option('token', { type: 'string', describe: 'Secret a browser needs to use the studio off loopback (env ANWC_STUDIO_TOKEN; one is made up and printed when not given)' })
      .option('uploads', { type: 'string', describe: 'Folder for markup files uploaded in the studio [default: ./anwc-uploads]' })
      .option('who', { type: 'string', describe: 'The name the audit gives to changes made in the studio [default: your user name]' })
      .example('npm run demo && npx anwc serve', 'the demo\'s story and nodes at http://127.0.0.1:8700/')
      .example('anwc serve --db mysql://anwc:secret@db.example/anwc --port 9000', 'the studio over a shared database')
      .example('anwc serve --host 0.0.0.0 --token "$(openssl rand -hex 16)"', 'reachable from other machines, with a token')
      .epilogue('Seed and Harvest in the studio run anwc seed and anwc harvest on the same database, with the --config file given here. '
        + 'On a database that holds only the demo\'s crawl, the demo web is started again so that both work offline. Ctrl-C stops a running harvest (its pages in flight saved), then the studio.'),
  handler: handler(async (argv: Record<string, unknown>) => {
    const db = String(resolved(argv, 'db').value);
    const host = (argv.host as string | undefined) ?? '127.0.0.1';
    const portText = argv.port === undefined ? String(DEFAULT_PORT) : String(argv.port);
    const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!(port <= 65535)) throw new UserError('--port must be a whole number from 0 to 65535', { value: portText, fix: `e.g. --port ${DEFAULT_PORT}` });
    const tokenRequired = !LOOPBACK.has(host);
    const given = (argv.token as string | undefined) ?? process.env.ANWC_STUDIO_TOKEN;
    if (given !== undefined && given.length < 16) throw new UserError('the token is too short to guess badly', { fix: 'give at least 16 characters, e.g. --token "$(openssl rand -hex 16)"' });
    const token = given ?? randomBytes(18).toString('base64url');
    // A new database is no mistake here: the studio's first step may be uploading markup.
    const store = await openStore(db);
    let web: DemoWeb | undefined;
    let server: ServerType | undefined;
    try {
      const demoPort = await demoPortOf(store);
      if (demoPort !== undefined) {
        web = await startDemoWeb({ port: demoPort }).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'EADDRINUSE') process.stderr.write(`anwc serve: the demo web's port ${demoPort} is taken; seeding and harvesting the demo will not reach it\n`);
          else throw err;
          return undefined;
        });
      }
      const jobs = new Jobs(db, jobArgs(argv.config as string | undefined, web));
      const app = studioApp({
        store, jobs, token, tokenRequired, hosts: servedNames(host),
        who: (argv.who as string | undefined) ?? userInfo().username,
        uploads: resolve((argv.uploads as string | undefined) ?? 'anwc-uploads'),
      });
      server = await listenOn(app, host, port);
      const address = server.address();
      const shownHost = host.includes(':') ? `[${host}]` : host;
      const url = `http://${shownHost}:${typeof address === 'object' && address ? address.port : port}/`;
      process.stdout.write(`anwc studio on ${url}${tokenRequired && given === undefined ? `?token=${token}` : ''}\n`);
      if (tokenRequired && given !== undefined) process.stdout.write('  open it with ?token= and the token you gave\n');
      process.stdout.write(`  database ${redact(db)}${web ? `; the demo web runs again on 127.0.0.1:${web.port} for seeding and harvesting` : ''}\n  Ctrl-C stops it\n`);
      await new Promise<void>((done) => {
        // The first Ctrl-C lets a running job finish its pages in flight; a second stops it at once.
        let signals = 0;
        const stop = () => {
          signals += 1;
          if (jobs.stop()) {
            process.stderr.write(signals === 1
              ? 'anwc serve: stopping the running job (its pages in flight are saved; Ctrl-C again to stop it at once)\n'
              : 'anwc serve: stopping the job at once\n');
          }
          if (signals === 1) void jobs.settled().then(done);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      return EXIT.OK;
    } finally {
      // An open page keeps its event stream: closing waits for no one.
      const closing = new Promise<void>((done) => (server ? server.close(() => done()) : done()));
      (server as { closeAllConnections?: () => void } | undefined)?.closeAllConnections?.();
      await closing;
      await web?.close();
      await store.close().catch(() => undefined);
    }
  }),
};
