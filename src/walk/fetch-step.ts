import { decodeHtml } from '../html/decode.js';
import type { Link, Store } from '../store/store.js';
import type { Fetcher } from '../web/fetcher.js';
import type { Answer, FetchOutcome } from '../web/outcome.js';
import type { Politeness } from '../web/politeness.js';
import { parseRetryAfter } from '../web/retry-after.js';
import { RobotsCache, robotsOrigin } from '../web/robots-cache.js';
import { RobotsGate } from '../web/robots-fetch.js';
import { crawlDelay, type RobotsRules } from '../web/robots.js';
import type { DnsFacts } from './constraints/constraint.js';
import type { WalkOutcome } from './outcome.js';
import { DEFAULT_MAX_RETRIES, transience } from './retry.js';

/**
 * The walker's fetch step, the same for every activity: the address policy first (a refusal by
 * the run's own settings is said as such, never as a robots verdict), then robots.txt for the
 * product token (its Crawl-delay handed to politeness), then the request with the stored
 * validators and the referrer. A redirect to another host becomes a link of that host, under its
 * own politeness and robots.txt. The engine holds the politeness slot around this call.
 */

/** A page as the fetch step hands it to the actions. */
export interface FetchedPage {
  url: string;
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  /**
   * The body decoded as a browser would (decodeHtml), when first read: the harvest's action reads
   * the bytes (narrative.ts pageOfFetch), and the text is never made. Empty for a HEAD.
   */
  readonly text: string;
  /** The body as it came (after content decoding), for actions that keep bytes (the archiver). */
  body: Uint8Array;
  contentType: string | null;
  truncated: boolean;
  method: 'GET' | 'HEAD';
  requestHeaders: Record<string, string>;
}

export type FetchResult =
  /** `http` is missing when the page came from the run's shared results: no request was made. */
  | { page: FetchedPage; http?: FetchOutcome }
  /** No page: why, links to walk instead (a cross-host redirect), and the answer politeness learns from. */
  | { outcome: WalkOutcome; links?: string[]; http?: FetchOutcome };

export interface FetchStepOptions {
  /** The robots.txt product token (from the User-Agent). */
  token: string;
  politeness: Politeness;
  /**
   * Results shared by the walks of one run (maintenance tasks that reach the same URLs): a URL is
   * asked once, and a GET answers a later HEAD. Only answers are kept, not failures that a retry
   * might change.
   */
  shared?: Map<string, FetchResult>;
  /** robots.txt rules shared by the walks of one run, so that each origin's is asked once. */
  robots?: Map<string, RobotsRules>;
  /** The walk's retries of a link, to know its last try (a passing failure is shared only then). */
  maxRetries?: number;
  /** Validators of a copy kept outside the store (an archive's header table), for a conditional GET. */
  validators?: (url: string) => { etag?: string; lastModified?: string } | undefined;
  /**
   * Told of every answer that is not a page (redirect hops, 304s, error statuses) with its body,
   * for an activity that records every exchange (the archive's WARC). The fetch waits for it, so
   * a failure to record (a full disk) is the page's, as an action's would be.
   */
  onAnswer?: (answer: Answer) => Promise<void>;
}

export class FetchStep {
  readonly gate: RobotsGate;

  constructor(
    private readonly store: Store,
    private readonly fetcher: Fetcher,
    private readonly opts: FetchStepOptions,
  ) {
    this.gate = new RobotsGate(fetcher, { userAgent: opts.token, cache: new RobotsCache({ store, memory: opts.robots }) });
  }

  /**
   * The DNS facts of a host for DNS-class constraints, through the same address policy as the
   * fetch (mapped names are never looked up); a refusal or lookup failure as an outcome.
   */
  async dns(host: string): Promise<{ facts: DnsFacts } | { outcome: WalkOutcome }> {
    const v = await this.fetcher.policy.check(host);
    if (v.ok) return { facts: { canonicalName: host.toLowerCase(), addresses: [v.address] } };
    return v.failure === 'refused-address'
      ? { outcome: { kind: 'refused', reason: 'address-refused', detail: v.detail } }
      : { outcome: { kind: 'failed', failure: v.failure, detail: v.detail } };
  }

  /** `referer` is the URL of the page the link was found on. */
  async fetch(link: Link, signal: AbortSignal, method: 'GET' | 'HEAD' = 'GET', referer?: string): Promise<FetchResult> {
    const shared = this.opts.shared;
    if (!shared) return this.request(link, signal, method, referer);
    const known = shared.get(`GET ${link.url}`) ?? (method === 'HEAD' ? shared.get(`HEAD ${link.url}`) : undefined);
    if (known) return 'page' in known ? { page: known.page } : { outcome: known.outcome, ...(known.links ? { links: known.links } : {}) };
    const r = await this.request(link, signal, method, referer);
    // A passing failure (a 500, a 503) is shared only on the link's last try: until then the
    // retry must go out, not be answered from here.
    const lastTry = link.attempts >= (this.opts.maxRetries ?? DEFAULT_MAX_RETRIES);
    const answer = 'page' in r || (['http-error', 'redirected'].includes(r.outcome.kind) && (lastTry || !transience(r.outcome)));
    if (answer || (!('page' in r) && r.outcome.kind === 'robots' && r.outcome.retryAt === undefined)) shared.set(`${method} ${link.url}`, r);
    // A later link to where a redirect on the same host ended is that answer too.
    if ('page' in r && r.page.finalUrl !== r.page.url) shared.set(`${method} ${r.page.finalUrl}`, { page: { ...r.page, url: r.page.finalUrl } });
    return r;
  }

  private async request(link: Link, signal: AbortSignal, method: 'GET' | 'HEAD', referer?: string): Promise<FetchResult> {
    const address = await this.fetcher.policy.check(new URL(link.url).hostname);
    if (!address.ok) {
      return address.failure === 'refused-address'
        ? { outcome: { kind: 'refused', reason: 'address-refused', detail: address.detail } }
        : { outcome: { kind: 'failed', failure: address.failure, detail: address.detail } };
    }
    const origin = robotsOrigin(link.url);
    const before = this.gate.lastOutcome.get(origin);
    const decision = await this.gate.check(link.url);
    this.opts.politeness.setCrawlDelay(link.host, crawlDelay(decision.rules, this.opts.token));
    // robots.txt was a request to the host too: the page waits the host's delay after it.
    if (this.gate.lastOutcome.get(origin) !== before) await pause(this.opts.politeness.state(link.host)?.delayMs ?? 0, signal);
    if (!decision.allowed) {
      const r = decision.rules;
      const retry = r.kind === 'disallow-all' && r.retryAfter !== undefined
        ? { retryAt: r.retryAfter, failures: r.failures, cause: r.cause, ...(r.status === undefined ? {} : { status: r.status }) }
        : {};
      return { outcome: { kind: 'robots', reason: decision.reason, ...retry } };
    }
    if (signal.aborted) return { outcome: { kind: 'failed', failure: 'interrupted' } };
    let elsewhere: string | undefined;
    const record = this.opts.onAnswer;
    const recorded: Promise<void>[] = [];
    const http = await this.fetcher.fetch(link.url, {
      method,
      decode: false,
      ...(record ? { onAnswer: (a: Answer) => void recorded.push(handled(record(a))) } : {}),
      referer,
      validators: link.etag || link.lastModified
        ? { etag: link.etag ?? undefined, lastModified: link.lastModified ?? undefined }
        : this.opts.validators?.(link.url),
      allowUrl: async (url) => {
        if (new URL(url).hostname !== link.host) {
          elsewhere = url;
          return { allowed: false, failure: 'scope', detail: 'redirect to another host' };
        }
        return this.gate.allowUrl(url);
      },
    });
    await Promise.all(recorded);
    if (elsewhere && http.kind === 'failed') {
      return { outcome: { kind: 'redirected', status: http.status ?? 0, to: elsewhere }, links: [elsewhere], http };
    }
    return { ...pageOrOutcome(http), http };
  }

  close(): Promise<void> {
    return this.fetcher.close();
  }
}

function pageOrOutcome(o: FetchOutcome): { page: FetchedPage } | { outcome: WalkOutcome } {
  switch (o.kind) {
    case 'ok': {
      let text: string | undefined;
      return {
        page: {
          url: o.url, finalUrl: o.finalUrl, status: o.status, headers: o.headers, body: o.body,
          get text() {
            return (text ??= decodeHtml(o.body, o.contentType).text);
          },
          contentType: o.contentType, truncated: o.truncated, method: o.method, requestHeaders: o.requestHeaders,
        },
      };
    }
    case 'not-modified':
      return { outcome: { kind: 'not-modified', status: o.status } };
    case 'http-error': {
      const wait = parseRetryAfter(o.headers['retry-after'], o.timing.startMs + o.timing.totalMs);
      const retryAt = wait === undefined ? undefined : o.timing.startMs + o.timing.totalMs + wait;
      return { outcome: { kind: 'http-error', status: o.status, ...(retryAt === undefined ? {} : { retryAt }) } };
    }
    case 'failed':
      if (o.failure === 'refused-address') return { outcome: { kind: 'refused', reason: 'address-refused', detail: o.detail } };
      return { outcome: { kind: 'failed', failure: o.failure, detail: o.detail } };
  }
}

/** A promise awaited later: its rejection counts as handled until then, so it cannot end the process first. */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
