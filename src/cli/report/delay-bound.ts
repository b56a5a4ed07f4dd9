import type { DelayBound } from '../../walk/delay-watch.js';

/**
 * What the progress line (bar and JSON) says when the politeness delay, not the network, sets a
 * walk's pace: which delay, at which host, and the flags that lift it on a site of one's own.
 */

/** Requests in flight a host of one's own is offered in the hint: enough to show, few enough to be kind. */
const OWN_SITE_PER_HOST = 4;

/** `bounded by the politeness delay (1 s a request to fail.test); for a site you own: --delay 0 --per-host 4`. */
export function delayBoundText(b: DelayBound): string {
  const each = `${seconds(b.delayMs)} a request`;
  const flags = [
    ...(b.baseDelayMs > 0 ? ['--delay 0'] : []),
    ...(b.perHost < OWN_SITE_PER_HOST ? [`--per-host ${OWN_SITE_PER_HOST}`] : []),
    ...(b.concurrency < OWN_SITE_PER_HOST ? [`--concurrency ${OWN_SITE_PER_HOST}`] : []),
  ].join(' ');
  // A Crawl-delay longer than --delay is the site's own ask: the flags alone do not lift it.
  if (b.delayMs > b.baseDelayMs) {
    const others = b.hosts > 1 ? `; ${b.hosts} hosts waited on` : '';
    return `bounded by the Crawl-delay in ${b.host}'s robots.txt (${each}${others}); for a site you own: lower it there${flags ? `, and run with ${flags}` : ''}`;
  }
  const where = b.hosts > 1 ? `to each of ${b.hosts} hosts, e.g. ${b.host}` : `to ${b.host}`;
  return `bounded by the politeness delay (${each} ${where}); for a site you own: ${flags}`;
}

/** The JSON form: the same facts as fields, and the line itself; null while the network sets the pace. */
export function delayBoundJson(b: DelayBound | undefined): { by: 'delay' | 'crawl-delay'; delayS: number; host: string; hosts: number; share: number; hint: string } | null {
  if (!b) return null;
  return {
    by: b.delayMs > b.baseDelayMs ? 'crawl-delay' : 'delay', delayS: b.delayMs / 1000, host: b.host, hosts: b.hosts,
    share: Math.round(b.share * 100) / 100, hint: delayBoundText(b),
  };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}
