import type { RuntimeAction } from '../walk/actions/action.js';
import { followable } from '../walk/actions/inferiors.js';
import type { Archive, StoreResult } from './archive.js';
import { uniqueRefs } from '../walk/references.js';

/**
 * The archiver's action: keep the page, then walk on. Pages within `maxDepth` links of a root
 * have their links followed; every archived HTML page also has what it needs to display (images,
 * style sheets, scripts) fetched, one level past the depth if need be, so that the last level of
 * the copy still looks like the site.
 */
export function archivePage(archive: Archive, opts: { maxDepth: number; follow?: boolean; onStored?: (url: string, r: StoreResult) => void }): RuntimeAction {
  return {
    name: 'archive',
    run: async (v, out) => {
      const result = await archive.store(v.page, v.link.depth);
      opts.onStored?.(v.page.url, result);
      out.notes.archived = result;
      if (opts.follow === false || !v.isHtml() || v.link.depth > opts.maxDepth) return;
      if (v.link.depth < opts.maxDepth) for (const l of followable(v)) out.follow.push({ url: l.url });
      for (const r of uniqueRefs(v.references())) if (r.kind === 'requisite') out.follow.push({ url: r.url });
    },
  };
}
