import type { RuntimeAction } from '../walk/actions/action.js';
import { followable } from '../walk/actions/inferiors.js';
import type { PageFacts } from './graph.js';

/** The mapper's action: keep what the map shows of the page (every reference on it, repeats included), then walk its links. */
export function mapPage(collect: (p: PageFacts) => void): RuntimeAction {
  return {
    name: 'map',
    run: (v, out) => {
      const h = v.page.headers;
      collect({
        url: v.page.url, finalUrl: v.page.finalUrl, status: v.page.status, contentType: v.page.contentType, title: v.title(), depth: v.link.depth, headers: h,
        ...(h['last-modified'] ? { lastModified: h['last-modified'] } : {}),
        refs: v.references().map((r) => ({ url: r.url, tag: r.tag })),
      });
      for (const l of followable(v)) out.follow.push({ url: l.url });
    },
  };
}
