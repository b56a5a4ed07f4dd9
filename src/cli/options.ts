import type { Argv, Options } from 'yargs';
import type { UserError } from '../errors.js';
import { parseResolveMappings } from '../web/resolve-mappings.js';
import { FETCH_DEFAULTS, POLITENESS_DEFAULTS } from '../web/defaults.js';
import { DEFAULT_CONTACT, DEFAULT_PRODUCT } from '../web/user-agent.js';
import {
  DEFAULT_PER_QUERY,
  DEFAULT_PROVIDER,
  DEFAULT_SEARCH_TIMEOUT_MS,
  DEFAULT_WIKI,
  PROVIDER_NAMES,
} from '../search/provider.js';
import { EXPORT_FORMATS } from '../feed/export-format.js';
import { HARVEST_DEFAULTS } from '../harvest/defaults.js';
import { EXTRACTORS } from '../extract/extracted.js';
import type { RewardSpec } from '../harvest/harvest.js';
import { DEFAULT_MAX_RETRIES } from '../walk/retry.js';
import { DEFAULT_MAX_LINKS_PER_PAGE } from '../walk/scope.js';
import { STRATEGIES } from '../walk/strategies/strategy.js';

/**
 * One source of truth per option (practice 8): each flag is defined once here, and every command
 * that takes it asks for it by name. The help text, the yargs parsing and the validation all come
 * from this table. Defaults are applied after parsing (see `resolved`), so "not given" and "given
 * the default" stay distinct.
 */
export interface OptionSpec {
  type: 'string' | 'number' | 'boolean' | 'array';
  describe: string;
  /** The value used when neither the flag nor its environment variable is given. */
  default?: string | number | boolean;
  /** An environment variable that stands in for the flag. */
  env?: string;
  choices?: readonly string[];
  alias?: string;
  /** Returns the fix to print when the value is wrong, or undefined when it is fine. */
  check?: (value: unknown) => string | undefined;
  /** An address that may hold a password: printed (config show, an error) only through redact. */
  secret?: true;
  /**
   * The value names a file: written in a configuration file, a relative one is read from that
   * file's folder, as an instruction file's are. `database`: the PATH of `sqlite:PATH`;
   * `activity`: a file when it ends in .w4 or .json, else the name of a built-in activity.
   */
  path?: 'file' | 'database' | 'activity';
}

/** `--reward`'s value, or undefined when it is neither a number from 0 up nor `relevance`. */
export function parseReward(v: unknown): RewardSpec | undefined {
  if (v === 'relevance') return v;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

const positiveInt = (v: unknown): string | undefined =>
  Number.isInteger(v) && (v as number) > 0 ? undefined : 'give a whole number above 0';

/**
 * A duration in seconds within its range. Every duration ends up in a timer, and Node's timers
 * hold at most 2^31-1 ms (about 24.8 days): a larger value fires at once, so it is refused here.
 */
const seconds = (min: number, max: number, minIncluded = false) => (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isFinite(v) && (minIncluded ? v >= min : v > min) && v <= max
    ? undefined
    : `give seconds ${minIncluded ? 'from' : 'above'} ${min} ${minIncluded ? 'to' : 'and at most'} ${max.toLocaleString('en')}`;

/** A span of days (a maintenance task's EmailChanged, EmailExpired): up to a century. */
const days = (v: unknown): string | undefined => (typeof v === 'number' && v >= 0 && v <= 36_500 ? undefined : 'give days from 0 to 36,500');

/** Response bodies are held in memory: 256 MiB is far above any page and still fits. */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;

export const OPTIONS = {
  config: {
    type: 'string',
    describe: `A JSON file of options ({"delay": 2, "hosts": "*.example.org"}); flags and environment win over it`,
    default: 'anwc.config.json',
  },
  db: {
    path: 'database',
    type: 'string',
    describe: 'Database: sqlite:PATH or mysql://user:pass@host:port/db (a local server by its socket: mysql://user@localhost/db?socket=PATH)',
    default: 'sqlite:./anwc.sqlite',
    env: 'ANWC_DB',
    secret: true,
  },
  json: {
    type: 'boolean',
    describe: 'Print JSON (one object a line) instead of text',
  },
  seed: {
    type: 'number',
    describe: 'Seed for the random generator, so that a run can be repeated',
    check: (v) => (Number.isInteger(v) ? undefined : 'give a whole number'),
  },
  extractor: {
    type: 'string',
    describe: 'How paragraphs are found: thesis (p and table blocks, the five rules) or narrative (the main content, more block kinds, context, citations and typography cleaned)',
    choices: EXTRACTORS,
    default: 'thesis',
  },
  blocks: {
    type: 'string',
    describe: 'Extra block tags to read besides p and table, comma-separated (e.g. div,li,blockquote)',
  },
  'base-url': {
    type: 'string',
    describe: 'URL the document was fetched from, to resolve its relative links',
  },
  charset: {
    type: 'string',
    describe: 'Read the input in this encoding (e.g. windows-1252), as if the server had said so',
  },
  'max-link-density': {
    type: 'number',
    describe: 'Reject blocks whose share of characters inside links is above this (0-1; off by default, 0.5 suits news pages)',
    check: (v) => (typeof v === 'number' && v >= 0 && v <= 1 ? undefined : 'give a fraction between 0 and 1, e.g. 0.5'),
  },
  provider: {
    type: 'string',
    describe: 'Search provider for seed URLs',
    choices: PROVIDER_NAMES,
    default: DEFAULT_PROVIDER,
  },
  'search-endpoint': {
    type: 'string',
    describe: "Root URL of the search API instead of the provider's own host (required for searxng)",
  },
  'per-query': {
    type: 'number',
    describe: 'Seed URLs wanted per meta set (a seed file: all it lists unless given)',
    default: DEFAULT_PER_QUERY,
    check: positiveInt,
  },
  all: {
    type: 'boolean',
    describe: 'Search every meta set again, not only those with a word this provider never searched',
  },
  wiki: {
    type: 'string',
    describe: 'Wikipedia language (en, de, …) or a wiki host (en.wikisource.org) for --provider wikipedia',
    default: DEFAULT_WIKI,
  },
  'seed-file': {
    path: 'file',
    type: 'string',
    describe: 'File of seed URLs for --provider file: one a line, "# meta: a, b" lines give their meta words',
  },
  meta: {
    type: 'string',
    describe: 'Meta words, comma-separated, for seed-file URLs above any "# meta:" line',
  },
  'search-timeout': {
    type: 'number',
    describe: 'Seconds to wait for a search API to answer',
    default: DEFAULT_SEARCH_TIMEOUT_MS / 1000,
    check: seconds(0, 600),
  },
  'user-agent': {
    type: 'string',
    describe: 'User-Agent product token and version, e.g. anwc/0.1; --contact is added as a (+URL) comment unless the value has one. robots.txt groups match its product token',
    default: DEFAULT_PRODUCT,
    env: 'ANWC_USER_AGENT',
    check: (v) => (typeof v === 'string' && /^[A-Za-z_-]+/.test(v) ? undefined : 'start with a product token, e.g. anwc/0.1'),
  },
  contact: {
    type: 'string',
    describe: 'URL or mailto: that tells webmasters who runs the crawler, added to the User-Agent',
    default: DEFAULT_CONTACT,
    env: 'ANWC_CONTACT',
    check: (v) => (typeof v === 'string' && /^(https?:\/\/|mailto:)\S+$/.test(v) ? undefined : 'give an http(s) URL or mailto: address'),
  },
  from: {
    type: 'string',
    describe: 'E-mail address sent as the From header (MOMspider did; webmasters can write to you)',
    env: 'ANWC_FROM',
    check: (v) => (typeof v === 'string' && /^[^\s@]+@[^\s@]+$/.test(v) ? undefined : 'give an e-mail address, e.g. you@example.org'),
  },
  resolve: {
    type: 'array',
    describe: 'HOST:ADDR used instead of DNS and trusted even when private (curl --resolve without the port; *.test for a whole domain)',
    check: (v) => {
      try {
        parseResolveMappings((v as unknown[]).map(String));
        return undefined;
      } catch (e) {
        return `${JSON.stringify((e as UserError).value)} is not HOST:ADDR; ${(e as UserError).fix ?? ''}`;
      }
    },
  },
  'allow-private': {
    type: 'boolean',
    describe: 'Allow private, loopback and link-local addresses (off: refused before any packet is sent)',
  },
  timeout: {
    type: 'number',
    describe: 'Seconds a fetch may take, redirects and body included',
    default: FETCH_DEFAULTS.timeoutMs / 1000,
    check: seconds(0, 3600),
  },
  'max-bytes': {
    type: 'number',
    describe: 'Bytes read per response, before and after decompression, up to 268435456 (256 MiB); longer bodies are cut and marked truncated',
    default: FETCH_DEFAULTS.maxBytes,
    check: (v) => (Number.isInteger(v) && (v as number) > 0 && (v as number) <= MAX_BODY_BYTES ? undefined : `give a whole number of bytes from 1 to ${MAX_BODY_BYTES} (256 MiB)`),
  },
  'max-redirects': {
    type: 'number',
    describe: 'Redirects followed per fetch',
    default: FETCH_DEFAULTS.maxRedirects,
    check: (v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : 'give a whole number, 0 or more'),
  },
  delay: {
    type: 'number',
    describe: 'Seconds between requests to one host (raised by robots.txt Crawl-delay, up to 30)',
    default: POLITENESS_DEFAULTS.delayMs / 1000,
    check: seconds(0, 3600, true),
  },
  'per-host': {
    type: 'number',
    describe: 'Requests in flight per host at once',
    default: POLITENESS_DEFAULTS.perHost,
    check: positiveInt,
  },
  backoff: {
    type: 'number',
    describe: 'Seconds to wait after a host\'s first error before trying it again, doubled (with jitter) after each further error; also the first wait before a failed link is tried again',
    default: POLITENESS_DEFAULTS.backoffBaseMs / 1000,
    check: seconds(0, 3600),
  },
  head: {
    type: 'boolean',
    describe: 'Send HEAD instead of GET: headers only',
  },
  pending: {
    type: 'boolean',
    describe: 'Only meta words that no search has used yet',
  },
  origin: {
    type: 'string',
    describe: 'Which nodes: written by the author, harvested by the crawler, or all',
    choices: ['author', 'crawler', 'all'],
    default: 'all',
  },
  format: {
    type: 'string',
    describe: 'Output format: ANE markup, JSON lines, or CSV (RFC 4180)',
    choices: EXPORT_FORMATS,
    default: 'ane',
  },
  out: {
    path: 'file',
    type: 'string',
    describe: 'Write to this file instead of stdout (replaced whole, only when the export succeeds)',
  },
  strategy: {
    type: 'string',
    describe: 'How the next domain is chosen: the roulette wheel of domain scores, or the bfs/dfs baselines',
    choices: STRATEGIES,
    default: HARVEST_DEFAULTS.strategy,
  },
  concurrency: {
    type: 'number',
    describe: 'Pages fetched at once (each host still gets --per-host at a time); as many again may wait, fetched, to be read and stored',
    default: HARVEST_DEFAULTS.concurrency,
    check: positiveInt,
  },
  reward: {
    type: 'string',
    describe: 'What a page that yields narrative nodes adds to its domain\'s score: a number (the thesis: 1), or "relevance", a point per node of the page linked to a meta word, a point less for a page with none (down to 0.05)',
    default: String(HARVEST_DEFAULTS.reward),
    check: (v) => (parseReward(v) === undefined ? 'give a number, 0 or more, or relevance' : undefined),
  },
  keep: {
    type: 'string',
    describe: 'A paragraph that passes the rules but is relevant to no meta word (its topic profile, anwc why-node): off-topic keeps it, counted as on no topic (the thesis: every paragraph that passes is kept); drop does not store it',
    choices: ['off-topic', 'drop'],
    default: 'off-topic',
  },
  order: {
    type: 'string',
    describe: 'The order of a domain\'s links: as found (the strategy\'s), or relevance: links whose anchor names a meta word, then links from pages on the topic, first',
    choices: ['discovery', 'relevance'],
  },
  'max-depth': {
    type: 'number',
    describe: 'Links followed away from a seed URL (depth 0), or from the last page that paid the wheel (see --depth-from)',
    default: HARVEST_DEFAULTS.maxDepth,
    check: (v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : 'give a whole number, 0 or more'),
  },
  'depth-from': {
    type: 'string',
    describe: 'What --max-depth counts from. text: a seed, or the last page that paid the wheel (one with a node; under --reward relevance, one on the topic), so a walk that strays from the text ends and a good host is read on; seed: the seeds only, a hard bound on the walk',
    choices: ['text', 'seed'],
    default: HARVEST_DEFAULTS.depthFrom,
  },
  'max-pages': {
    type: 'number',
    describe: 'Pages walked in this run, then stop (no limit when not given)',
    check: positiveInt,
  },
  'max-pages-per-domain': {
    type: 'number',
    describe: 'Pages walked per domain in this run',
    check: positiveInt,
  },
  'max-links-per-page': {
    type: 'number',
    describe: 'Links stored from one page, the first it lists; the rest are counted in the run summary and by anwc why (Heritrix keeps 6,000)',
    default: DEFAULT_MAX_LINKS_PER_PAGE,
    check: (v) => (Number.isInteger(v) && (v as number) > 0 && (v as number) <= 10_000_000 ? undefined : 'give a whole number from 1 to 10,000,000'),
  },
  'heap-budget': {
    type: 'number',
    describe: 'MB of JavaScript heap (its old generation) past which a long run collects its garbage in full, looking once a second (0, the default: leave it to V8, whose old generation anwc lets grow by half at most)',
    // heap-budget.ts says why none.
    default: 0,
    check: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65_536 ? undefined : 'give whole megabytes from 0 to 65,536'),
  },
  'max-time': {
    type: 'number',
    describe: 'Seconds after which no new page is started',
    check: seconds(0, 2_147_483),
  },
  hosts: {
    type: 'string',
    describe: 'Stay on these hosts: comma-separated names or *.domain patterns (links elsewhere are not stored)',
  },
  'same-host': {
    type: 'boolean',
    describe: 'Follow links only to the host of the page they were found on',
  },
  lease: {
    type: 'number',
    describe: 'Seconds a link stays leased without a heartbeat: a running process renews its leases every third of this, a dead one\'s links return after it',
    default: HARVEST_DEFAULTS.leaseMs / 1000,
    check: seconds(0, 86_400),
  },
  'max-retries': {
    type: 'number',
    describe: 'Tries again a link whose fetch failed for a passing reason (timeout, reset, 429, 5xx…) up to this many times, across runs, then calls it failed; a robots.txt that cannot be had is asked again as many times, without spending its links\' tries',
    default: DEFAULT_MAX_RETRIES,
    check: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100 ? undefined : 'give a whole number from 0 to 100'),
  },
  'retry-failed': {
    type: 'boolean',
    describe: 'Before walking, put the links that failed for good back in the frontier (all, or those of --kind)',
  },
  kind: {
    type: 'string',
    describe: 'With --retry-failed: only these failures, comma-separated (timeout, reset, refused, dns, network, http-503, 5xx, 4xx…)',
  },
  replace: {
    type: 'boolean',
    describe: 'Let a markup file that now holds no node delete its stored author nodes (refused without it)',
  },
  state: {
    path: 'database',
    type: 'string',
    describe: 'Keep the walk\'s frontier in this database (sqlite:PATH or mysql://…) so that a rerun resumes it and anwc why can explain it; by default a walk keeps nothing',
    default: 'sqlite::memory:',
    secret: true,
  },
  activity: {
    path: 'activity',
    type: 'string',
    describe: 'The activity to run: a file (.w4 s-expression or .json) or the name of a built-in one (anwc activity list)',
  },
  report: {
    path: 'file',
    type: 'string',
    describe: 'Write the walk\'s HTML report here (made by the html-* actions); by default NAME-report.html when there is one',
  },
  workers: {
    type: 'number',
    describe: 'Harvest processes to start on this machine; they share the database as one crawl (politeness, leases and the wheel); with --seed S, worker k of 0..N-1 draws with S + k',
    default: 1,
    check: (v) => (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 64 ? undefined : 'give a whole number from 1 to 64'),
  },
  progress: {
    type: 'string',
    describe: 'Progress: a live bar on a terminal, JSON lines on stderr otherwise, or none',
    choices: ['auto', 'bar', 'json', 'none'],
    default: 'auto',
  },
  // maintain
  tree: { type: 'string', describe: 'A Tree task: the top document; documents outside its directory are leaves' },
  site: { type: 'string', describe: 'A Site task: the top document; documents on another host:port are leaves' },
  owner: { type: 'string', describe: 'An Owner task: the top document; documents whose Owner is not --name are leaves' },
  name: { type: 'string', describe: 'The task\'s name; for --owner, the Owner its documents carry' },
  smtp: {
    type: 'string',
    describe: 'Mail each task\'s notice through this SMTP server: smtp://[user:pass@]host:port (smtps:// for TLS)',
    env: 'ANWC_SMTP',
    secret: true,
  },
  email: { type: 'string', describe: 'With a task from the flags: mail its broken and moved links (and --changed, --expired items) to this address' },
  webhook: {
    type: 'string',
    describe: 'POST each task\'s report as JSON to this URL (held to the address policy and --resolve as the crawl is; a redirect is not followed)',
    check: (v) => (typeof v === 'string' && /^https?:\/\/[^/?#\s]+\S*$/i.test(v) && URL.canParse(v) ? undefined : 'give an http(s) URL, e.g. https://hooks.example.org/anwc'),
    secret: true,
  },
  sites: { path: 'file', type: 'string', describe: 'A MOMspider sites file (Site host:port [date|*] a line): robots.txt is not asked of a site listed there until its date, the avoid file holding its rules; rewritten with the sites read this run' },
  'sites-check': { type: 'number', describe: 'Days a site\'s robots.txt, once turned into Avoid entries, is trusted before it is read again (SitesCheck; RFC 9309 asks for at most 1)', check: days },
  nodes: { type: 'boolean', describe: 'Revalidate the source pages of the stored crawler nodes (conditional GET): mark a node gone (404, 410, host gone) or changed (its text no longer on the page)' },
  avoid: { path: 'file', type: 'string', describe: 'A MOMspider avoid file: Avoid|Leaf URLprefix [date|*] a line; expired entries are dropped when it is written back' },
  changed: { type: 'number', describe: 'Report documents modified within this many days (EmailChanged)', check: days },
  expired: { type: 'number', describe: 'Report documents of the task that expire within this many days (EmailExpired)', check: days },
  // map
  constraints: {
    type: 'string',
    describe: 'More constraints in the activity form, one `(uri-extension :html)` or a list `((depth 2) (not ((uri-search "tmp"))))`',
  },
  headers: {
    type: 'boolean',
    describe: 'Show each page\'s response headers in the HTML and JSON map',
  },
  // locate
  words: {
    type: 'string',
    describe: 'The words to look for, space-separated (compared by Porter stem, stop words ignored)',
  },
  weights: {
    type: 'string',
    describe: 'A weight per word, space-separated (default 1 each)',
  },
  threshold: {
    type: 'number',
    describe: 'A document is returned when its score reaches this (Salton: weighted share of its content words)',
    default: 0.001,
    check: (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'give a number, 0 or more'),
  },
  search: {
    type: 'string',
    describe: 'local: depth first, the best link of the page just read first (the paper); global: best first over the whole frontier; bfs: breadth first',
    choices: ['local', 'global', 'bfs'],
    default: 'local',
  },
  scoring: {
    type: 'string',
    describe: 'Rank by the paper\'s Salton score, or by BM25 (k1 1.2, b 0.75, IDF over the pages the walk read)',
    choices: ['salton', 'bm25'],
    default: 'salton',
  },
  // archive
  depth: {
    type: 'number',
    describe: 'Links followed away from the root URLs (the roots are depth 0)',
    default: 2,
    check: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100 ? undefined : 'give a whole number from 0 to 100'),
  },
  'content-type': {
    type: 'string',
    describe: 'Media types to archive, comma-separated (type/* for a whole kind); others are not downloaded',
    default: 'text/html,application/xhtml+xml,text/css,text/javascript,application/javascript,image/*,font/*,text/plain,application/pdf',
    check: (v) => (String(v).split(',').every((t) => /^(?:\*|[a-z0-9.+-]+)\/(?:\*|[a-z0-9.+-]+)$/i.test(t.trim())) ? undefined : 'give media types like text/html,image/*'),
  },
  refresh: {
    path: 'file',
    type: 'string',
    describe: 'Refresh the archive in this folder: fetch every copy again with a conditional GET and say what changed',
  },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/**
 * The table's options the running command declared. Only its builder runs (the others are listed,
 * not built), so a command's own option of the same name (locate's --format) is never mistaken
 * for the table's.
 */
const declaredFromTable = new Set<string>();

/** Adds the named options from the table to a yargs command builder. */
export function withOptions<T>(y: Argv<T>, ...names: OptionName[]): Argv<T> {
  let out = y;
  for (const name of names) {
    declaredFromTable.add(name);
    const spec: OptionSpec = OPTIONS[name];
    const opt: Options = { type: spec.type, describe: spec.describe };
    if (spec.choices) opt.choices = [...spec.choices];
    if (spec.alias) opt.alias = spec.alias;
    const dflt = spec.default !== undefined ? `default: ${String(spec.default)}` : '';
    const env = spec.env ? `env: ${spec.env}` : '';
    const tail = [dflt, env].filter(Boolean).join(', ');
    if (tail) opt.describe = `${spec.describe} [${tail}]`;
    out = out.option(name, opt) as Argv<T>;
  }
  return out;
}

export type Source = 'flag' | 'env' | 'file' | 'default' | 'unset';

/** Values of the configuration file, set once before a command runs (flag > environment > file > default). */
let fileValues: ReadonlyMap<string, { value: unknown; at?: { line: number; col: number } }> = new Map();
let filePath: string | undefined;
/** The options whose value in argv came from the configuration file, not from a flag. */
const filledFromFile = new Set<string>();

export function useConfigValues(values: ReadonlyMap<string, { value: unknown; at?: { line: number; col: number } }>, path?: string): void {
  fileValues = values;
  filePath = path;
  filledFromFile.clear();
}

/**
 * Puts the file's values into argv for the options the running command declares and the user did
 * not give (by flag or environment), so that a command reading `argv.json` sees `"json": true`
 * of the file exactly as it sees `--json`: one precedence for every option, however it is read.
 */
export function fillFromFile(argv: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, { value }] of fileValues) {
    if (!declaredFromTable.has(name) || argv[name] !== undefined) continue;
    const envName = (OPTIONS as Record<string, OptionSpec>)[name]?.env;
    if (envName && env[envName] !== undefined && env[envName] !== '') continue;
    argv[name] = value;
    argv[name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
    filledFromFile.add(name);
  }
}

/** Where a value from the configuration file was written, `PATH:line:col`, for config show. */
export function configSource(name: string): string | undefined {
  const v = fileValues.get(name);
  return v && filePath ? `${filePath}${v.at ? `:${v.at.line}:${v.at.col}` : ''}` : undefined;
}

export interface Resolved<V> {
  value: V;
  source: Source;
}

/** The value of an option with where it came from: flag, then environment, then default. */
export function resolved(
  argv: Record<string, unknown>,
  name: OptionName,
  env: NodeJS.ProcessEnv = process.env,
): Resolved<unknown> {
  const spec: OptionSpec = OPTIONS[name];
  if (argv[name] !== undefined) return { value: argv[name], source: filledFromFile.has(name) && argv[name] === fileValues.get(name)?.value ? 'file' : 'flag' };
  if (spec.env && env[spec.env] !== undefined && env[spec.env] !== '') {
    return { value: env[spec.env], source: 'env' };
  }
  const fromFile = fileValues.get(name);
  if (fromFile) return { value: fromFile.value, source: 'file' };
  if (spec.default !== undefined) return { value: spec.default, source: 'default' };
  return { value: undefined, source: 'unset' };
}

export { positiveInt };
