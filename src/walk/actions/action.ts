import { elementsCut, extractLinks, parseDom, type Dom, type PageLinks } from '../../html/index.js';
import { readReferences, type PageReference } from '../references.js';
import type { Link, NodeInput } from '../../store/store.js';
import type { FetchedPage } from '../fetch-step.js';

/**
 * Actions of the W4 walker (appendix B): what an activity does with each page that passed its
 * constraints. Every action reads the one fetched page through a PageView, which parses the HTML
 * at most once however many actions ask, and writes what it found into the page's Effects: links
 * to walk (with a priority, for sorted walks), narrative nodes, located documents, report output.
 * No action fetches anything (practice 5).
 */

/** Where actions write: text lines (the paper's report stream) and fragments of the HTML report. */
export interface Report {
  text(line: string): void;
  /** An HTML fragment, already escaped by the action that made it. */
  html(fragment: string): void;
}

export interface PageView {
  readonly page: FetchedPage;
  readonly link: Link;
  /** The crawler's robots.txt product token. */
  readonly token: string;
  readonly report: Report;
  /** The page's links (base href, nofollow, meta robots applied once). */
  links(): PageLinks;
  /** The `<title>` of an HTML page, whitespace collapsed; '' when there is none. */
  title(): string;
  /** The page's readable text: an HTML page's text content, or the body itself for text/plain. */
  text(): string;
  isHtml(): boolean;
  /** Every http(s) reference of an HTML page, each occurrence, in page order (walk/references.ts); none for another type. */
  references(): PageReference[];
  /** Whether the page's tree or its reference scan, once made, read only its first MAX_ELEMENTS elements (html/dom.ts). */
  cut(): boolean;
}

/** A document a locating action picked, with its score. */
export interface Located {
  url: string;
  score: number;
  title: string;
  matched: string[];
}

export interface Effects {
  follow: { url: string; priority?: number }[];
  nodes: NodeInput[];
  located: Located[];
  /** Facts for the outcome record (a score, a title). */
  notes: Record<string, unknown>;
}

export interface RuntimeAction {
  readonly name: string;
  run(view: PageView, out: Effects): void | Promise<void>;
}

export function emptyEffects(): Effects {
  return { follow: [], nodes: [], located: [], notes: {} };
}

const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml)\b/i;

/** A PageView over a fetched page; the DOM and its links are built on first use and kept. */
export function pageView(page: FetchedPage, link: Link, token: string, report: Report): PageView {
  let dom: Dom | undefined;
  let links: PageLinks | undefined;
  let refs: { refs: PageReference[]; cut: boolean } | undefined;
  const html = HTML_TYPES.test(page.headers['content-type'] ?? 'text/html');
  const domOf = () => (dom ??= parseDom(page.text));
  return {
    page,
    link,
    token,
    report,
    isHtml: () => html,
    links() {
      links ??= html ? extractLinks(domOf(), { url: page.finalUrl, robotsToken: token }) : { base: page.finalUrl, links: [], robots: { noindex: false, nofollow: false } };
      return links;
    },
    title: () => (html ? (domOf().querySelector('title')?.text ?? '').replace(/\s+/g, ' ').trim() : ''),
    text: () => (html ? domOf().structuredText : page.text),
    references: () => (refs ??= html ? readReferences(page.text, page.finalUrl) : { refs: [], cut: false }).refs,
    cut: () => (dom !== undefined && elementsCut(dom)) || refs?.cut === true,
  };
}
