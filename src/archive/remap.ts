import { absolute, scanReferences } from '../walk/references.js';

/**
 * The archiver's remapper (W4 paper, section 5C): the references of an archived HTML page made to
 * work from disk. Links to archived resources become relative paths to their files, other links
 * absolute URLs (so they still reach the web), and `<base>` is taken out once every reference has
 * been resolved against it. Only the attribute values change: the rest of the page is kept byte
 * for byte, so an XHTML page stays well-formed and a page's own markup is never re-serialised.
 */

/**
 * The page with its references remapped. `local(url)` gives the relative href of an archived
 * URL's file from this page's file, or undefined when the URL is not archived.
 */
export function remapHtml(html: string, pageUrl: string, local: (url: string) => string | undefined): string {
  const { base, occurrences, bases } = scanReferences(html, pageUrl);
  const edits: { start: number; end: number; text: string }[] = bases.map((b) => ({ ...b, text: '' }));
  const map = (raw: string): string => {
    // A reference within the page stays one: the copy has the same fragments.
    if (raw.trim().startsWith('#')) return raw;
    const url = absolute(raw, base);
    if (!url) return raw;
    const href = local(url.key);
    return href === undefined ? url.full : `${href}${url.fragment}`;
  };
  for (const o of occurrences) {
    const value = o.name === 'srcset' ? remapSrcset(o.value, map) : map(o.value);
    if (value !== o.value) edits.push({ start: o.start, end: o.end, text: `${o.name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"` });
  }
  // Joined once, in page order: cutting the page anew at each edit was quadratic in its links.
  edits.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let from = 0;
  for (const e of edits) {
    parts.push(html.slice(from, e.start), e.text);
    from = e.end;
  }
  parts.push(html.slice(from));
  return parts.join('');
}

function remapSrcset(srcset: string, map: (raw: string) => string): string {
  return srcset
    .split(',')
    .map((c) => {
      const [url, ...descriptor] = c.trim().split(/\s+/);
      return url ? [map(url), ...descriptor].join(' ') : c;
    })
    .join(', ');
}
