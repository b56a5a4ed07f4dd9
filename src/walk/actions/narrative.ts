import { elementsCut, extractLinks, parseBytes, parseDom } from '../../html/index.js';
import { extract, type ExtractorName } from '../../extract/index.js';
import { contentStems, contentStemsOfWords, metaEvidence, relevanceOfStems, resolveHeuristics, type HeuristicOptions } from '../../text/index.js';
import { topicLinks, LITERAL_HEADING, LITERAL_TEXT, type TopicProfile } from '../../text/profile.js';
import { bandKeys, shingleSet } from '../../text/minhash.js';
import type { LinkEvidence, NodeInput } from '../../store/store.js';
import type { ActResult } from '../engine.js';
import type { FoundLink } from '../act-result.js';
import type { FetchedPage } from '../fetch-step.js';

export interface NarrativeOptions {
  /** Block tags besides p and table (the thesis extractor). */
  blocks?: string[];
  /** `thesis` (default) or `narrative` (extract/narrative.ts). */
  extractor?: ExtractorName;
  heuristics?: Partial<HeuristicOptions>;
  /** The crawler's robots.txt product token: `<meta name=TOKEN>` and `TOKEN:` in X-Robots-Tag speak to us. */
  robotsToken: string;
  /** `relevance`: each followed link gets a priority from the page's and its anchor's relevance (see linkPriority). */
  order?: LinkOrderBy;
  /** `drop`: a node linked to no meta word is not kept (default `off-topic`: kept, and counted). */
  keep?: KeepNodes;
}

export type KeepNodes = 'off-topic' | 'drop';

export type LinkOrderBy = 'discovery' | 'relevance';

/**
 * What the action reads of a fetched page: its text, or the bytes the text is decoded from with
 * the type they came under (a page crossing to the action's thread, narrative-thread.ts).
 */
export type NarrativePage = Pick<FetchedPage, 'finalUrl' | 'status' | 'headers' | 'truncated'> &
  ({ text: string } | { bytes: Uint8Array; contentType: string | null });

/**
 * A fetched page as the action reads it: its bytes, which the action decodes cutting what no
 * reader sees before it makes text of the rest (html/decode.ts decodeVisible), and which cross to
 * the action's thread as they are. The page's text is not made: a page of some 100 kB with one
 * character past Latin-1 is a string of twice that, which V8 places in memory mapped for it alone
 * and touched afresh, page by page. On bench/real-web.ts's 2,020 pages, decoding on the main thread
 * and reading the copy on the action's took half of a harvest's page faults (perf record -e
 * page-faults; some 19 µs each on the bench machine). As bytes, two pairs of harvests: 181–187 → 78
 * faults a page, 12.1–12.7 → 10.6–10.9 ms of CPU a page, 122–126 → 135–137 pages/s, peak RSS
 * 238–268 → 210–215 MB; the graded web's small pages, never so large, read the same within noise.
 */
export function pageOfFetch(page: FetchedPage): NarrativePage {
  return { finalUrl: page.finalUrl, status: page.status, headers: page.headers, truncated: page.truncated, bytes: page.body, contentType: page.contentType };
}

export interface MetaContext {
  /**
   * The meta words of the link's query lineage. Without `topics` they are the candidates: a node is
   * linked to those of them its text, or its page's title and headings, speaks of (metaEvidence).
   */
  metaWordIds: number[];
  metaStems: string[];
  /**
   * Every meta word with its topic profile (text/profile.ts): when given, a node is linked to each
   * one its relevance passes the threshold for, whatever the lineage, weighted by that relevance.
   */
  topics?: { id: number; profile: TopicProfile }[];
}

/**
 * The ANWC action (thesis 3.2.2-3.2.3): each block of the page is judged by the heuristics; the
 * accepted ones become crawler nodes linked to the query's meta words, the rejected ones are
 * counted by the rule that rejected them. Meta robots and X-Robots-Tag are honoured: noindex keeps
 * nothing from the page, nofollow follows none of its links, rel=nofollow skips that link.
 */
export function narrativeAction(page: NarrativePage, meta: MetaContext, opts: NarrativeOptions): ActResult {
  const heuristics = resolveHeuristics(opts.heuristics);
  const dom = 'bytes' in page ? parseBytes(page.bytes, page.contentType) : parseDom(page.text);
  const found = extractLinks(dom, { url: page.finalUrl, robotsToken: opts.robotsToken });
  const header = xRobotsTag(page.headers['x-robots-tag'], opts.robotsToken);
  const noindex = found.robots.noindex || header.noindex;
  const nofollow = found.robots.nofollow || header.nofollow;
  const followed = nofollow ? [] : found.links.filter((l) => !l.nofollow);
  const links: FoundLink[] = followed.map((l) => l.url);
  if (!nofollow && found.refresh) links.push(found.refresh);

  if (noindex) {
    return { outcome: { kind: 'noindex', status: page.status, links: links.length }, nodes: [], links };
  }

  const nodes: NodeInput[] = [];
  const seen = new Set<string>();
  const extracted = extract(dom, opts.extractor ?? 'thesis', { blocks: opts.blocks, heuristics });
  const topical = meta.metaStems.length > 0 || (meta.topics?.length ?? 0) > 0;
  const pageStems = topical ? new Set(contentStems(headingsText(dom), heuristics.stopWords)) : new Set<string>();
  let offTopic = 0;
  let dropped = 0;
  for (const kept of extracted.kept) {
    if (seen.has(kept.text)) continue;
    seen.add(kept.text);
    const stems = topical ? contentStemsOfWords(kept.words, heuristics.stopWords) : [];
    const linked = metaLinks(stems, pageStems, meta);
    if (topical && linked.length === 0) {
      if (opts.keep === 'drop') {
        dropped++;
        continue;
      }
      offTopic++;
    }
    const shingles = shingleSet(kept.words);
    nodes.push({
      text: kept.text,
      relevance: meta.metaStems.length === 0 ? 0 : relevanceOfStems(stems, meta.metaStems),
      metaWordIds: linked.map((m) => m.id),
      metaWeights: linked.map((m) => m.weight),
      metaEvidence: linked.map((m) => m.evidence),
      bands: bandKeys(shingles),
      shingles,
    });
  }
  const onTopic = topical ? nodes.filter((n) => n.metaWordIds.length > 0).length : undefined;
  // Each on-topic node's strongest link weight (its relevance to the word it speaks of most), summed.
  const topicWeight = round4(nodes.reduce((sum, n) => sum + Math.max(0, ...(n.metaWeights ?? [])), 0));
  if (opts.order === 'relevance' && meta.metaStems.length > 0) {
    const share = nodes.length === 0 ? 0 : onTopic! / nodes.length;
    followed.forEach((l, i) => {
      links[i] = { url: l.url, priority: linkPriority(share, contentStems(l.anchorText, heuristics.stopWords), meta.metaStems) };
    });
  }
  return {
    outcome: {
      kind: 'harvested',
      status: page.status,
      nodes: nodes.length,
      ...(onTopic === undefined ? {} : { onTopic, offTopic, topicWeight, ...(dropped > 0 ? { offTopicDropped: dropped } : {}) }),
      blocks: extracted.blocks,
      rejected: extracted.rejected,
      links: links.length,
      ...(page.truncated || elementsCut(dom) ? { truncated: true } : {}),
    },
    nodes,
    links,
  };
}

/**
 * The meta words a node is linked to, each with its weight and what it rests on. With topic
 * profiles: every meta word whose relevance passes (text/profile.ts), and a lineage word without a
 * profile by its literal evidence; without: the lineage words the node speaks of (metaEvidence).
 */
function metaLinks(
  stems: readonly string[], pageStems: ReadonlySet<string>, meta: MetaContext,
): { id: number; weight: number; evidence: LinkEvidence | null }[] {
  const topics = meta.topics ?? [];
  const out: { id: number; weight: number; evidence: LinkEvidence | null }[] = topicLinks(stems, pageStems, topics);
  const profiled = new Set(topics.map((t) => t.id));
  const evidence = metaEvidence(stems, pageStems, meta.metaStems);
  meta.metaWordIds.forEach((id, i) => {
    if (profiled.has(id) || !(evidence[i]! > 0)) return;
    const literal = stems.includes(meta.metaStems[i]!) ? 'text' : 'heading';
    if (topics.length === 0) out.push({ id, weight: evidence[i]!, evidence: null });
    else {
      const score = literal === 'text' ? LITERAL_TEXT : LITERAL_HEADING;
      out.push({ id, weight: score, evidence: { score, literal, similarity: 0, terms: [] } });
    }
  });
  return out;
}

/**
 * How soon a link found on a page is walked within its domain, higher first: a point when its
 * anchor text names a meta word (the strongest hint of what lies behind it), plus the share of the
 * page's nodes that spoke of the meta words (a page on the topic tends to link to more of it).
 */
export function linkPriority(pageShare: number, anchorStems: readonly string[], metaStems: readonly string[]): number {
  const named = anchorStems.some((s) => metaStems.includes(s)) ? 1 : 0;
  return named + pageShare;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The page's title and headings, where a page says what it is about. */
function headingsText(dom: ReturnType<typeof parseDom>): string {
  return dom.querySelectorAll('title, h1, h2, h3, h4, h5, h6').map((e) => e.text).join(' \n ');
}

/**
 * X-Robots-Tag directives that apply to us: unprefixed ones, or those prefixed with a user agent
 * we answer to ("anwc: noindex"). Other bots' directives are not ours to obey.
 */
export function xRobotsTag(value: string | undefined, token: string): { noindex: boolean; nofollow: boolean } {
  const out = { noindex: false, nofollow: false };
  if (!value) return out;
  for (const part of value.split(/,(?=\s*[A-Za-z-]+\s*:)|\n/)) {
    let directives = part;
    const m = /^\s*([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(part);
    if (m && !/^(?:noindex|nofollow|none|all|index|follow|unavailable_after|max-\w+|noarchive|nosnippet|notranslate|noimageindex)$/i.test(m[1]!)) {
      if (m[1]!.toLowerCase() !== token.toLowerCase()) continue;
      directives = m[2]!;
    }
    for (const d of directives.split(',').map((x) => x.trim().toLowerCase())) {
      if (d === 'noindex' || d === 'none') out.noindex = true;
      if (d === 'nofollow' || d === 'none') out.nofollow = true;
    }
  }
  return out;
}
