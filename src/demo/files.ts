import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';

/** Content types by file extension; text types say utf-8, as every file of the demo web is. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
};

export function contentType(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The hosts of a sites folder: its subfolders, sorted. */
export function listHosts(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name.toLowerCase())
    .sort();
}

/** What a request path comes to on disk. */
export type Resolution =
  | { kind: 'file'; file: string; size: number }
  /** A folder asked for without its trailing slash: redirect, so relative links resolve. */
  | { kind: 'slash'; location: string }
  | { kind: 'not-found' }
  /** Malformed escapes, NUL, backslash or a `..` segment: never looked up. */
  | { kind: 'refused' };

/**
 * Maps the path of a request target (no query) to a file under `siteDir`. A folder serves its
 * index.html. Traversal is refused twice: by segment before any look-up, and by checking that
 * the joined path stays inside the site's folder.
 */
export async function resolvePath(siteDir: string, rawPath: string): Promise<Resolution> {
  if (!rawPath.startsWith('/')) return { kind: 'refused' };
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'refused' };
  }
  if (/[\0\\]/.test(path)) return { kind: 'refused' };
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) return { kind: 'refused' };
  const target = join(siteDir, ...segments);
  if (target !== siteDir && !target.startsWith(siteDir + sep)) return { kind: 'refused' };
  const st = await stat(target).catch(() => undefined);
  if (!st) return { kind: 'not-found' };
  if (st.isDirectory()) {
    if (!path.endsWith('/')) return { kind: 'slash', location: `${rawPath}/` };
    const index = join(target, 'index.html');
    const ist = await stat(index).catch(() => undefined);
    return ist?.isFile() ? { kind: 'file', file: index, size: ist.size } : { kind: 'not-found' };
  }
  return st.isFile() ? { kind: 'file', file: target, size: st.size } : { kind: 'not-found' };
}
