import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { readFile } from 'node:fs/promises';
import { printable, UserError } from '../../errors.js';
import { checkRobots, productToken, robotsFromFetch, ROBOTS_MAX_BYTES } from '../../web/robots.js';
import { EXIT } from '../exit.js';
import { withOptions } from '../options.js';
import { handler } from '../run.js';

interface RobotsArgs {
  file: string;
  token: string;
  urls: string[];
  json?: boolean;
}

/**
 * `anwc robots FILE TOKEN URL..`: the crawler's own robots.txt check on a local file, like
 * Google's robots_main. It is a check, so it exits like grep: 0 when every URL is allowed, 1 when
 * any is disallowed, 2 when the file or a URL cannot be read.
 */
export const robotsCommand: CommandModule = {
  ...ABOUT.robots,
  builder: (y) =>
    withOptions(
      y
        .positional('file', { type: 'string', describe: 'robots.txt file to read' })
        .positional('token', { type: 'string', describe: 'Product token of the crawler (or its whole User-Agent)' })
        .positional('urls', { type: 'string', array: true, describe: 'Absolute http(s) URLs to check' }),
      'json',
    )
      .example('anwc robots robots.txt anwc https://example.org/private/a', 'DISALLOWED https://example.org/private/a  (disallow: /private at line 3)')
      .epilogue('Exit codes: 0 all allowed, 1 some disallowed, 2 unreadable file or bad URL.'),
  handler: handler(async (argv: RobotsArgs) => {
    const token = productToken(argv.token);
    if (token === '') {
      throw new UserError('not a product token', { value: argv.token, fix: 'start it with letters, "_" or "-", e.g. anwc' });
    }
    for (const url of argv.urls) checkUrl(url);
    const rules = robotsFromFetch({ status: 200, body: await readRobotsFile(argv.file) }, Date.now());
    if (rules.truncated) {
      process.stderr.write(`anwc: ${argv.file}: longer than ${ROBOTS_MAX_BYTES} bytes; lines past that are not read, as by the crawler\n`);
    }
    const out: string[] = [];
    let disallowed = false;
    for (const url of argv.urls) {
      const d = checkRobots(rules, url, token);
      if (!d.allowed) disallowed = true;
      out.push(argv.json ? JSON.stringify({ url, ...d }) : `${(d.allowed ? 'ALLOWED' : 'DISALLOWED').padEnd(10)} ${url}  (${d.reason})`);
    }
    process.stdout.write(out.map(printable).join('\n') + '\n');
    return disallowed ? EXIT.PROBLEMS : EXIT.OK;
  }),
};

function checkUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UserError('not an absolute URL', { value: url, fix: 'give a full URL such as https://example.org/page' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new UserError('robots.txt only governs http and https URLs', { value: url });
  }
}

async function readRobotsFile(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new UserError(`cannot read: ${why}`, { file, fix: 'give the path of a robots.txt file' });
  }
}
