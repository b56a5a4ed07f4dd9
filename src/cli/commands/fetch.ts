import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { printable, UserError } from '../../errors.js';
import { Fetcher } from '../../web/fetcher.js';
import type { FetchOutcome } from '../../web/outcome.js';
import { RobotsGate } from '../../web/robots-fetch.js';
import type { RobotsDecision, RobotsRules } from '../../web/robots.js';
import { normalizeUrl } from '../../web/url.js';
import { EXIT } from '../exit.js';
import { withOptions } from '../options.js';
import { fetcherOptionsFrom, FETCH_OPTION_NAMES } from '../web-options.js';
import { handler } from '../run.js';

interface FetchArgs {
  url: string;
  head?: boolean;
  json?: boolean;
}

/**
 * `anwc fetch URL`: one fetch exactly as the crawler would make it (robots.txt first, address
 * checks, caps, redirects each checked), printed whole for debugging. Like `curl -f` it fails
 * when the answer is not a success: exit 0 for 2xx or 304, 1 for an HTTP error, a refusal
 * (robots, address) or a network failure, 2 for a bad URL or flag.
 */
export const fetchCommand: CommandModule = {
  ...ABOUT.fetch,
  builder: (y) =>
    withOptions(
      y.positional('url', { type: 'string', describe: 'Absolute http(s) URL' }),
      'head', 'json', ...FETCH_OPTION_NAMES,
    )
      .example('anwc fetch https://example.org/ --head', 'status, headers and the robots decision, no body')
      .example("anwc fetch http://alpha.test:8080/ --resolve '*.test:127.0.0.1'", 'a local test site, no DNS')
      .epilogue('Exit codes: 0 fetched (2xx or 304), 1 HTTP error, refused or failed, 2 bad URL or flag.'),
  handler: handler(async (argv: FetchArgs) => {
    const target = normalizeUrl(argv.url);
    if (!target.ok) throw new UserError(`not a URL anwc can fetch: ${target.detail}`, { value: argv.url, fix: 'give an absolute http:// or https:// URL' });
    const fetcher = new Fetcher(fetcherOptionsFrom(argv as unknown as Record<string, unknown>));
    try {
      // The address policy first, as the walker's fetch step does: a refusal by this run's settings
      // is said as such, never as robots.txt's verdict.
      const address = await fetcher.policy.check(new URL(target.url).hostname);
      if (!address.ok && address.failure === 'refused-address') {
        const fix = 'a run with --resolve HOST:ADDRESS or --allow-private fetches it';
        process.stdout.write(argv.json ? `${JSON.stringify({ userAgent: fetcher.userAgent, refused: { reason: 'address-refused', detail: address.detail, fix } })}\n`
          : `url        ${target.url}\nrefused    the address is refused by this run's settings (${address.detail}); ${fix}\n`);
        return EXIT.PROBLEMS;
      }
      const gate = new RobotsGate(fetcher, { userAgent: fetcher.userAgent });
      const robots = await gate.check(target.url);
      const outcome = robots.allowed
        ? await fetcher.fetch(target.url, { method: argv.head ? 'HEAD' : 'GET', allowUrl: gate.allowUrl, decode: false })
        : undefined;
      const report = { userAgent: fetcher.userAgent, robots: robotsSummary(robots), outcome: outcome && withoutBody(outcome) };
      process.stdout.write(argv.json ? JSON.stringify(report) + '\n' : formatText(target.url, report.robots, outcome).split('\n').map(printable).join('\n'));
      if (!outcome) return EXIT.PROBLEMS;
      return outcome.kind === 'ok' || outcome.kind === 'not-modified' ? EXIT.OK : EXIT.PROBLEMS;
    } finally {
      await fetcher.close();
    }
  }),
};

function robotsSummary(d: RobotsDecision & { rules: RobotsRules }) {
  // Disallowed for want of an answer (a 5xx, a 429, no connection), not by a rule: asked again later.
  const unreachable = d.rules.kind === 'disallow-all' && d.rules.retryAfter !== undefined;
  return { allowed: d.allowed, reason: d.reason, rule: d.rule, robotsTxt: d.rules.cause, truncated: d.rules.truncated, unreachable };
}

/** The outcome without its bytes: the report is about the fetch, not a copy of the page. */
function withoutBody(o: FetchOutcome): Omit<FetchOutcome, 'body'> {
  if (o.kind !== 'ok') return o;
  const { body: _body, ...rest } = o;
  return rest;
}

function formatText(url: string, robots: ReturnType<typeof robotsSummary>, o: FetchOutcome | undefined): string {
  const lines: string[] = [];
  const row = (k: string, v: string) => lines.push(`${k.padEnd(10)} ${v}`);
  row('url', url);
  row('robots', `${robots.allowed ? 'allowed' : 'DISALLOWED'}: ${robots.reason} (robots.txt: ${robots.robotsTxt}${robots.truncated ? ', cut at 500 KiB' : ''})`);
  if (!o) {
    row('outcome', robots.unreachable ? 'not fetched: robots.txt could not be had; try again later' : 'not fetched: robots.txt disallows it');
    return lines.join('\n') + '\n';
  }
  for (const hop of o.redirects) row('redirect', `${hop.status} ${hop.url}`);
  if (o.kind === 'failed') {
    row('failed', `${o.failure}: ${o.detail}`);
    if (o.status !== undefined) row('status', String(o.status));
  } else {
    row('status', `${o.status}${o.kind === 'not-modified' ? ' (not modified)' : ''}`);
  }
  row('final', o.finalUrl);
  if (o.kind === 'ok' || o.kind === 'http-error') row('type', o.contentType ?? '(none)');
  if (o.kind === 'ok') {
    if (o.charset) row('charset', `${o.charset} (from ${o.charsetSource})`);
    row('bytes', `${o.bytes}${o.wireBytes !== o.bytes ? ` (${o.wireBytes} on the wire)` : ''}${o.truncated ? ', truncated at the cap' : ''}`);
  }
  const t = o.timing;
  row('timing', `${t.headersMs === undefined ? '' : `headers ${t.headersMs} ms, `}total ${t.totalMs} ms`);
  const headers = 'headers' in o && o.headers ? o.headers : {};
  if (Object.keys(headers).length) {
    lines.push('headers');
    for (const [k, v] of Object.entries(headers)) lines.push(`  ${k}: ${v}`);
  }
  return lines.join('\n') + '\n';
}
