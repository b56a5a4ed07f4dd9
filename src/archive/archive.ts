import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolder } from '../make-folder.js';
import { writeFileAtomic } from '../atomic-file.js';
import { UserError } from '../errors.js';
import type { FetchedPage } from '../walk/fetch-step.js';
import type { Answer } from '../web/outcome.js';
import { HeadersTable, type ArchivedEntry } from './headers-table.js';
import { indexTwin, insideFolder, MirrorLayout, relativeHref, RESERVED } from './layout.js';
import { remapHtml } from './remap.js';
import { httpDateHeader, validatorsOf } from '../web/validators.js';
import { cdxjOf, WarcWriter } from './warc.js';

/**
 * An archive folder (W4 paper, section 5C): a mirror of the walked pages under one folder per
 * host, the header table for refreshing it, and beside them a WARC file with its CDXJ index for
 * replay tools. HTML copies are written from the fetched text through the remapper once the walk
 * is over, when it is known which references have a copy; the fetched text is kept under
 * .anwc/raw/ so that a later run (a resume, a refresh) remaps from the page as served.
 */

const HTML_TYPE = /^(?:text\/html|application\/xhtml\+xml)\b/i;

export type StoreResult = 'new' | 'changed' | 'same';

export class Archive {
  readonly warcFile: string;
  readonly cdxjFile: string;
  private readonly meta: string;
  private readonly table: HeadersTable;
  private readonly layout: MirrorLayout;
  private readonly warc: WarcWriter;

  private constructor(readonly root: string, software: string) {
    this.meta = join(root, RESERVED[0]);
    this.warcFile = join(root, RESERVED[1]);
    this.cdxjFile = join(root, RESERVED[2]);
    makeFolder(join(this.meta, 'raw'));
    this.table = new HeadersTable(join(this.meta, 'headers.jsonl'));
    this.layout = new MirrorLayout([...this.table.entries.values()].flatMap((e) => placements(root, e)));
    this.warc = new WarcWriter(this.warcFile, software);
  }

  /** An archive in ROOT: a new or empty folder, or one anwc archived into before (the walk resumes). */
  static create(root: string, software: string): Archive {
    if (existsSync(root)) {
      if (!statSync(root).isDirectory()) throw new UserError(`--out names a file`, { value: root, fix: 'give a folder for the archive' });
      if (!existsSync(join(root, RESERVED[0])) && readdirSync(root).length > 0) {
        throw new UserError('--out holds files that are not an anwc archive', { value: root, fix: 'give a new or empty folder (or one anwc archived into before, to add to it)' });
      }
    }
    return Archive.open(root, software);
  }

  /** An archive made before, for a refresh. */
  static existing(root: string, software: string): Archive {
    if (!existsSync(join(root, RESERVED[0], 'headers.jsonl'))) {
      throw new UserError('not an anwc archive (it has no .anwc/headers.jsonl)', { value: root, fix: 'give the folder an earlier anwc archive --out wrote' });
    }
    return Archive.open(root, software);
  }

  private static open(root: string, software: string): Archive {
    try {
      return new Archive(root, software);
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(`cannot use ${root} as an archive: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { value: root, fix: 'give a folder you can write to' });
    }
  }

  entries(): ArchivedEntry[] {
    return [...this.table.entries.values()];
  }

  entry(url: string): ArchivedEntry | undefined {
    return this.table.entries.get(url);
  }

  /** Keeps a fetched page: its copy (HTML: the fetched text, remapped later), its WARC records, its header-table line. */
  async store(page: FetchedPage, depth: number, at = new Date()): Promise<StoreResult> {
    const sha256 = createHash('sha256').update(page.body).digest('hex');
    const before = this.table.entries.get(page.url);
    const html = HTML_TYPE.test(page.contentType ?? 'text/html');
    const { file, sameAs } = this.placeOf(page, sha256, before);
    if (page.finalUrl !== page.url) this.layout.alias(page.finalUrl, file);
    if (html) {
      const raw = join(this.meta, 'raw', `${sha256}.html`);
      if (!existsSync(raw)) writeFileAtomic(raw, page.text, { mkdir: true });
    } else {
      writeFileAtomic(insideFolder(this.root, file), page.body, { mkdir: true });
    }
    await this.warc.add({ ...page, url: page.finalUrl }, at);
    const h = page.headers;
    const expires = httpDateHeader(h, 'expires');
    this.table.put({
      url: page.url, file, ...(sameAs ? { sameAs } : {}), ...(page.finalUrl !== page.url ? { aliases: [page.finalUrl] } : {}),
      status: page.status, contentType: page.contentType,
      ...validatorsOf(h), ...(expires ? { expires } : {}),
      fetchedAt: at.toISOString(), sha256, bytes: page.body.length, html,
      ...(html ? { utf8: Buffer.from(page.text, 'utf8').equals(Buffer.from(page.body)) } : {}), depth,
    });
    if (!before) return 'new';
    return before.sha256 === sha256 ? 'same' : 'changed';
  }

  /**
   * The file of a page: its twin's (`dir/` and `dir/index.html`) when the server gave the same
   * bytes under both names, so the copy has one page where the site has one; its own otherwise.
   */
  private placeOf(page: FetchedPage, sha256: string, before: ArchivedEntry | undefined): { file: string; sameAs?: string } {
    const twinUrl = indexTwin(page.url);
    const twin = twinUrl === undefined ? undefined : this.table.entries.get(twinUrl);
    if (twin && !twin.sameAs && twin.sha256 === sha256 && (!before || before.sameAs === twin.url)) {
      this.layout.alias(page.url, twin.file);
      return { file: twin.file, sameAs: twin.url };
    }
    // It shared its twin's copy and no longer has the same bytes: it gets a file of its own.
    if (before?.sameAs) this.layout.forget(page.url);
    return { file: this.layout.place(page.url, page.contentType) };
  }

  /**
   * Records an answer that is not a page (a redirect hop, an error status: a response record; a
   * 304: a revisit of the capture it confirms). The copies and the header table are left alone.
   */
  async record(answer: Answer): Promise<void> {
    const at = new Date(answer.at);
    if (answer.status !== 304) return this.warc.add(answer, at);
    const e = this.table.find(answer.url);
    return this.warc.revisit(answer, e && { uri: e.aliases?.[0] ?? e.url, date: e.fetchedAt }, at);
  }

  /**
   * Writes every HTML copy from its fetched text with its references remapped; returns how many.
   * A text the server sent in another charset is written as UTF-8 with a byte-order mark, which
   * a browser reads before any `<meta charset>` the page declares.
   */
  remapAll(): number {
    let n = 0;
    for (const e of this.table.entries.values()) {
      // A page that shares its twin's copy is written as its twin.
      if (!e.html || e.sameAs) continue;
      const raw = join(this.meta, 'raw', `${e.sha256}.html`);
      if (!existsSync(raw)) continue;
      const pageUrl = e.aliases?.[0] ?? e.url;
      const out = remapHtml(readFileSync(raw, 'utf8'), pageUrl, (url) => {
        const target = this.layout.fileOf(url);
        return target === undefined ? undefined : relativeHref(e.file, target);
      });
      writeFileAtomic(insideFolder(this.root, e.file), e.utf8 === false ? `\uFEFF${out}` : out, { mkdir: true });
      n++;
    }
    return n;
  }

  /** Ends a run: WARC records on disk, the header table compacted, the CDXJ index rebuilt from the WARC. */
  async finish(): Promise<void> {
    await this.warc.flush();
    this.table.compact();
    if (existsSync(this.warcFile)) writeFileAtomic(this.cdxjFile, await cdxjOf(this.warcFile));
  }
}

/** An entry's file and aliases for the layout, refused when the table names a place outside the archive. */
function placements(root: string, e: ArchivedEntry): [string, string][] {
  const first = e.file.split('/')[0] ?? '';
  let ok = !(RESERVED as readonly string[]).includes(first) && !e.file.split('/').some((s) => s === '..' || s === '.' || s === '');
  try {
    insideFolder(root, e.file);
  } catch {
    ok = false;
  }
  if (!ok) throw new UserError(`${join(root, RESERVED[0], 'headers.jsonl')}: the entry of ${e.url} names a place outside the archive`, { value: e.file, fix: 'restore the file, or archive again into a new folder' });
  return [[e.url, e.file], ...(e.aliases ?? []).map((a): [string, string] => [a, e.file])];
}
