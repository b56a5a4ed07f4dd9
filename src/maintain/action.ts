import type { RuntimeAction } from '../walk/actions/action.js';
import { httpDateHeader } from '../web/validators.js';
import { mayWalk, owned, type MaintenanceTask } from './task.js';

/** What the maintenance action keeps of a document it tested. */
export interface TestedDoc {
  url: string;
  finalUrl: string;
  status: number;
  method: 'GET' | 'HEAD';
  contentType: string | null;
  title: string;
  lastModified?: string;
  expires?: string;
  owner?: string;
  /** A document of the infostructure: its references are listed and walked. */
  member: boolean;
  refs: { url: string; tag: string }[];
}

/** The Owner of a document: the HTTP header, `<meta name="Owner" content>`, or the paper's `<META header name="Owner" value>`. */
export function ownerOf(headers: Record<string, string>, html: string): string | undefined {
  if (headers.owner) return headers.owner;
  const meta = /<meta\b[^>]*\bname\s*=\s*["']?owner["']?[^>]*>/i.exec(html)?.[0];
  if (!meta) return undefined;
  return /\b(?:content|value)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(meta)?.slice(1).find((x) => x !== undefined);
}

/** `leaf(url)`: the avoid files make this URL a leaf whatever the traversal type says. */
export function maintainPage(task: MaintenanceTask, collect: (d: TestedDoc) => void, leaf: (url: string) => boolean = () => false): RuntimeAction {
  return {
    name: 'maintain',
    run: (v, out) => {
      const h = v.page.headers;
      const html = v.page.method === 'GET' && v.isHtml();
      const owner = ownerOf(h, html ? v.page.text : '');
      // A redirect is reported as moved; its target is a document of its own, walked under its own URL.
      const moved = v.page.finalUrl !== v.page.url;
      const member = !moved && html && mayWalk(task, v.page.finalUrl) && !leaf(v.page.url) && owned(task, owner);
      const refs = member ? v.references().map((r) => ({ url: r.url, tag: r.tag })) : [];
      collect({
        url: v.page.url, finalUrl: v.page.finalUrl, status: v.page.status, method: v.page.method, contentType: v.page.contentType, title: html ? v.title() : '',
        ...dates(h), ...(owner ? { owner } : {}),
        member, refs,
      });
      if (moved) out.follow.push({ url: v.page.finalUrl });
      if (member && !v.links().robots.nofollow) for (const r of refs) out.follow.push({ url: r.url });
    },
  };
}

/** Last-Modified and Expires as the server wrote them, each only when it reads as a date (web/validators.ts). */
function dates(h: Record<string, string>): { lastModified?: string; expires?: string } {
  const lastModified = httpDateHeader(h, 'last-modified');
  const expires = httpDateHeader(h, 'expires');
  return { ...(lastModified ? { lastModified } : {}), ...(expires ? { expires } : {}) };
}
