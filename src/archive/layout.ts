import { createHash } from 'node:crypto';
import { posix, resolve, sep } from 'node:path';

/**
 * Where each archived URL lives under the archive folder (W4 paper, section 5C: a folder per
 * host, mirroring the URI hierarchy). A URL is hostile: whatever it spells, its file is inside
 * the folder and no other URL's file. Names are made safe one segment at a time (decoded,
 * separators and characters file systems refuse replaced, `.`/`..` defused, overlong names
 * shortened with a hash), and a registry keeps them apart where file systems would not: names
 * that differ only in case or Unicode form, a file where another URL needs a folder, and our own
 * files beside the hosts.
 */

/** Names the archive keeps for itself at its top, beside the host folders. */
export const RESERVED = ['.anwc', 'anwc.warc.gz', 'anwc.cdxj'] as const;

const MAX_SEGMENT_BYTES = 200;
const MAX_QUERY_CHARS = 60;

/** Extensions a browser opening the file from disk reads as the type the server gave. */
const EXTENSIONS: Record<string, string[]> = {
  'text/html': ['.html', '.htm'],
  'application/xhtml+xml': ['.xhtml', '.xht', '.html', '.htm'],
  'text/css': ['.css'],
  'text/javascript': ['.js', '.mjs'],
  'application/javascript': ['.js', '.mjs'],
  'text/plain': ['.txt'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/svg+xml': ['.svg'],
  'image/webp': ['.webp'],
  'image/x-icon': ['.ico'],
  'image/vnd.microsoft.icon': ['.ico'],
  'application/pdf': ['.pdf'],
  'application/json': ['.json'],
  'font/woff2': ['.woff2'],
  'font/woff': ['.woff'],
};

/** Characters Windows, macOS or Linux refuse in a name, or that a shell or URL would misread. */
const UNSAFE = /[\u0000-\u001f\u007f/\\<>:"|?*]/g;
const DEVICE_NAMES = /^(?:con|prn|aux|nul|com\d|lpt\d)(?:\..*)?$/i;

export class MirrorLayout {
  private readonly byUrl = new Map<string, string>();
  /** Folded file path → the URL that has it. */
  private readonly files = new Map<string, string>();
  /** Folded folder paths some file lives under. */
  private readonly dirs = new Set<string>();

  /** `known` are the placements of an earlier run (url → path), kept as they were. */
  constructor(known: Iterable<[string, string]> = []) {
    for (const name of RESERVED) {
      this.files.set(fold(name), '');
      this.dirs.add(fold(name));
    }
    for (const [url, path] of known) this.claim(url, path);
  }

  /**
   * The file of an archived URL, a path relative to the archive folder with `/` separators. A
   * directory URL and its index.html lead to the one copy that was fetched of the two (as wget's
   * --convert-links does: both are one file on its disk).
   */
  fileOf(url: string): string | undefined {
    const own = this.byUrl.get(url);
    if (own !== undefined) return own;
    const twin = indexTwin(url);
    const file = twin === undefined ? undefined : this.byUrl.get(twin);
    return file?.endsWith('/index.html') ? file : undefined;
  }

  /** Takes a URL's own name away (one that shared its twin's file), so that it can be placed anew; the file stays its twin's. */
  forget(url: string): void {
    this.byUrl.delete(url);
  }

  entries(): IterableIterator<[string, string]> {
    return this.byUrl.entries();
  }

  /** Places a URL (once: the same URL keeps its file) by the type its server gave. */
  place(url: string, contentType: string | null): string {
    const known = this.byUrl.get(url);
    if (known) return known;
    const wanted = preferredPath(url, contentType);
    const path = this.free(wanted) ? wanted : this.fallback(url, wanted);
    this.claim(url, path);
    return path;
  }

  /** Another URL for a placed file (the URL a same-host redirect ended at). */
  alias(url: string, path: string): void {
    if (!this.byUrl.has(url)) this.byUrl.set(url, path);
  }

  private fallback(url: string, wanted: string): string {
    const segments = wanted.split('/');
    const last = segments.pop()!;
    const ext = extensionOf(last);
    const tagged = [...segments, `${last.slice(0, last.length - ext.length)}~${hash(url, 8)}${ext}`].join('/');
    if (this.free(tagged)) return tagged;
    // A file stands where one of the folders above should be: a flat name in the host folder.
    const flat = `${segments[0]}/~${hash(url, 16)}${ext}`;
    if (this.free(flat)) return flat;
    throw new Error(`no free name for ${url} in the archive`);
  }

  private free(path: string): boolean {
    const f = fold(path);
    if (this.files.has(f) || this.dirs.has(f)) return false;
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) if (this.files.has(parts.slice(0, i).join('/'))) return false;
    return true;
  }

  private claim(url: string, path: string): void {
    this.byUrl.set(url, path);
    const f = fold(path);
    this.files.set(f, url);
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
  }
}

/** The other name of a directory's index page: `dir/` for `dir/index.html` and back; none with a query. */
export function indexTwin(url: string): string | undefined {
  const u = new URL(url);
  if (u.search !== '') return undefined;
  if (u.pathname.endsWith('/')) u.pathname += 'index.html';
  else if (u.pathname.endsWith('/index.html')) u.pathname = u.pathname.slice(0, -'index.html'.length);
  else return undefined;
  return u.href;
}

/** The path a URL would have if nothing stood in its way. */
export function preferredPath(url: string, contentType: string | null): string {
  const u = new URL(url);
  const raw = u.pathname.split('/').slice(1);
  const name = raw.pop() ?? '';
  const segments = raw.map(safeSegment);
  let last = name === '' ? 'index' : safeSegment(name);
  const type = mediaType(contentType);
  if (u.search.length > 1) last += `@${safeQuery(u.search.slice(1))}`;
  const exts = EXTENSIONS[type ?? ''];
  if (exts && !exts.includes(extensionOf(last).toLowerCase())) last += exts[0];
  return [hostFolder(u), ...segments, shorten(last)].join('/');
}

/** `host`, `host@port` off the scheme's default port; IPv6 brackets and colons made safe. */
export function hostFolder(u: URL): string {
  const host = u.hostname.toLowerCase().replace(/[[\]:]/g, '_');
  const name = u.port ? `${host}@${u.port}` : host;
  return name.startsWith('.') || (RESERVED as readonly string[]).includes(name) ? `_${name}` : name;
}

/** One path segment of a URL as a file or folder name. */
export function safeSegment(raw: string): string {
  let s: string;
  try {
    s = decodeURIComponent(raw);
  } catch {
    s = raw;
  }
  s = s.normalize('NFC').replace(UNSAFE, '_');
  if (s === '') return '_';
  if (s === '.' || s === '..') return `_${s}`;
  if (DEVICE_NAMES.test(s)) s = `_${s}`;
  return shorten(s);
}

function safeQuery(q: string): string {
  const s = safeSegment(q);
  return s.length <= MAX_QUERY_CHARS ? s : hash(q, 12);
}

/** A name over the byte limit keeps its start and extension, with a hash of the whole between. */
function shorten(name: string): string {
  if (Buffer.byteLength(name) <= MAX_SEGMENT_BYTES) return name;
  const ext = extensionOf(name).slice(0, 16);
  let head = name.slice(0, MAX_SEGMENT_BYTES - ext.length - 10);
  while (Buffer.byteLength(head) > MAX_SEGMENT_BYTES - ext.length - 10) head = head.slice(0, -1);
  return `${head}~${hash(name, 8)}${ext}`;
}

function extensionOf(name: string): string {
  const m = /\.[A-Za-z0-9]{1,8}$/.exec(name);
  return m ? m[0] : '';
}

function mediaType(contentType: string | null): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/** Case and Unicode form folded, as macOS and Windows compare names. */
function fold(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

function hash(s: string, n: number): string {
  return createHash('sha256').update(s).digest('hex').slice(0, n);
}

/** The absolute place of an archive path; refuses any that would leave the folder, whatever made it. */
export function insideFolder(root: string, path: string): string {
  const base = resolve(root);
  const full = resolve(base, ...path.split('/'));
  if (!full.startsWith(base + sep)) throw new Error(`archive path ${JSON.stringify(path)} leaves ${base}`);
  return full;
}

/** The href from one archived file to another (both archive paths), percent-encoded as a URL reference. */
export function relativeHref(fromFile: string, toFile: string): string {
  const rel = posix.relative(posix.dirname(fromFile), toFile);
  return rel.split('/').map((s) => (s === '..' ? s : encodeURIComponent(s))).join('/');
}
