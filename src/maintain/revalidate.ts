import type { NodeStatus } from '../store/store.js';

/**
 * Revalidation of harvested text (`anwc maintain --nodes`): a crawler node is worth showing only
 * while its source page still holds it. Pure: the CLI fetches the pages and stores the verdicts.
 */

/** Text as words only: case, punctuation, spacing and compatibility forms do not make a change. */
export function foldText(text: string): string {
  return ` ${text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/** Whether a node's text is still on the page whose text, folded, is `foldedPage`. */
export function stillOnPage(nodeText: string, foldedPage: string): boolean {
  return foldedPage.includes(foldText(nodeText));
}

export type SourceVerdict =
  | { status: NodeStatus; why: string }
  /** A 304 to the conditional GET: the page is as it was last time. */
  | 'unchanged'
  /** Nothing can be said now (a server error, a timeout, robots.txt): the nodes keep their status. */
  | undefined;

/**
 * What a source page's outcome says of its nodes when no page was read: 404 and 410 and a host
 * that no longer resolves mean gone; a redirect, that the text is not where it was found.
 */
export function verdictOfOutcome(kind: string, detail: Record<string, unknown>): SourceVerdict {
  switch (kind) {
    case 'not-modified':
      return 'unchanged';
    case 'http-error':
      return detail.status === 404 || detail.status === 410 ? { status: 'gone', why: `HTTP ${String(detail.status)}` } : undefined;
    case 'failed':
      // Only a name that does not exist: a resolver that cannot answer now (EAI_AGAIN, offline) says nothing.
      return detail.failure === 'dns' && /ENOTFOUND|no address/.test(String(detail.detail)) ? { status: 'gone', why: `host not found (${String(detail.detail)})` } : undefined;
    case 'redirected':
      return { status: 'changed', why: `moved to ${String(detail.to)}` };
    default:
      return undefined;
  }
}
