/** Nodes found per domain in equal spans of time: the rows of the studio's "over time" chart. */
export interface Timeline {
  /** Start of each span (epoch ms), oldest first. */
  starts: number[];
  spanMs: number;
  /** The domains with most nodes, most first, each with its count per span; the rest summed as "other domains". */
  series: { host: string; counts: number[] }[];
}

/**
 * Cuts the time from the oldest to the newest node into `spans` equal spans and counts each
 * domain's nodes in each; the `top` domains with most nodes get a row each, the others one row.
 */
export function timeline(nodes: readonly { sourceUrl: string; createdAt: number }[], spans: number, top: number): Timeline {
  if (nodes.length === 0) return { starts: [], spanMs: 0, series: [] };
  let first = Infinity;
  let last = -Infinity;
  for (const n of nodes) {
    first = Math.min(first, n.createdAt);
    last = Math.max(last, n.createdAt);
  }
  const spanMs = Math.max(1, Math.ceil((last - first + 1) / spans));
  const perHost = new Map<string, number[]>();
  for (const n of nodes) {
    const host = hostOf(n.sourceUrl);
    const counts = perHost.get(host) ?? new Array<number>(spans).fill(0);
    counts[Math.min(spans - 1, Math.floor((n.createdAt - first) / spanMs))]! += 1;
    perHost.set(host, counts);
  }
  const total = (c: number[]) => c.reduce((a, x) => a + x, 0);
  const ranked = [...perHost].sort((a, b) => total(b[1]) - total(a[1]) || (a[0] < b[0] ? -1 : 1));
  const series = ranked.slice(0, top).map(([host, counts]) => ({ host, counts }));
  const rest = ranked.slice(top);
  if (rest.length > 0) {
    series.push({ host: 'other domains', counts: Array.from({ length: spans }, (_, i) => rest.reduce((a, [, c]) => a + c[i]!, 0)) });
  }
  return { starts: Array.from({ length: spans }, (_, i) => first + i * spanMs), spanMs, series };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname || '(no host)';
  } catch {
    return '(no host)';
  }
}
