import { existsSync, readFileSync } from 'node:fs';
import { appendWhole, writeFileAtomic } from '../atomic-file.js';
import { UserError } from '../errors.js';

/**
 * The archive's header table (W4 paper, section 5C: "the header information is kept so the
 * archive can be refreshed"): one JSON line per archived URL with where its copy is, its
 * validators and digest. Appended as each page is stored, so a crash loses nothing that reached
 * disk; the last line of a URL wins; compacted to one line per URL at the end of a run.
 */

export interface ArchivedEntry {
  url: string;
  /** Archive path of the copy (relative, `/` separators). */
  file: string;
  /** The URL whose copy this one shares: `dir/` and `dir/index.html` when the server gave the same bytes. */
  sameAs?: string;
  /** URLs that reached this copy by a redirect on the same host. */
  aliases?: string[];
  status: number;
  contentType: string | null;
  etag?: string;
  lastModified?: string;
  expires?: string;
  /** ISO time of the fetch that made the copy. */
  fetchedAt: string;
  /** SHA-256 of the body as fetched (before any remapping). */
  sha256: string;
  bytes: number;
  /** An HTML page whose references are remapped; its fetched text is kept under .anwc/raw/. */
  html: boolean;
  /** The fetched text was UTF-8 (else the remapped copy is written as UTF-8 with a byte-order mark). */
  utf8?: boolean;
  depth: number;
}

export class HeadersTable {
  readonly entries = new Map<string, ArchivedEntry>();
  /** The URL of the entry each alias belongs to. */
  private readonly aliasOf = new Map<string, string>();

  constructor(private readonly file: string) {
    if (!existsSync(file)) return;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      let e: ArchivedEntry;
      try {
        e = JSON.parse(line) as ArchivedEntry;
      } catch (err) {
        // A last line cut short by a crash is the one write that did not finish: drop it.
        if (i >= lines.length - 2) return;
        throw new UserError(`${file}:${i + 1}:1: not a JSON line (${(err as Error).message})`, { value: line.slice(0, 60), fix: 'restore the file, or archive again into a new folder' });
      }
      if (typeof e?.url !== 'string' || typeof e.file !== 'string' || typeof e.sha256 !== 'string') {
        throw new UserError(`${file}:${i + 1}:1: an entry needs url, file and sha256`, { value: line.slice(0, 60), fix: 'restore the file, or archive again into a new folder' });
      }
      this.set(e);
    });
  }

  /** The entry of a URL, or of the redirect that ended at it. */
  find(url: string): ArchivedEntry | undefined {
    return this.entries.get(url) ?? this.entries.get(this.aliasOf.get(url) ?? '');
  }

  /** Records an entry at once (one append of one line). */
  put(e: ArchivedEntry): void {
    appendWhole(this.file, `${JSON.stringify(e)}\n`);
    this.set(e);
  }

  private set(e: ArchivedEntry): void {
    this.entries.set(e.url, e);
    for (const a of e.aliases ?? []) this.aliasOf.set(a, e.url);
  }

  /** Rewrites the table with one line per URL, replacing it in one rename. */
  compact(): void {
    writeFileAtomic(this.file, [...this.entries.values()].map((e) => `${JSON.stringify(e)}\n`).join(''));
  }
}
