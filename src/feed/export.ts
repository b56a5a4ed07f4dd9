import type { Origin, Store, StoredNode } from '../store/store.js';
import { stem } from '../text/stem.js';
import type { ExportFormat } from './export-format.js';
import { CSV_HEADER, csvLine, toAne, toCsvLine, toJsonLine } from './formats.js';

/**
 * `anwc export`: stored nodes to ANE markup, JSONL or CSV. JSONL and CSV stream page by page;
 * ANE markup groups nodes by meta set, so it gathers them first.
 */
export interface ExportOptions {
  origin: Origin | 'all';
  format: ExportFormat;
  /** Only nodes linked to this word's stem. */
  meta?: string;
}

const PAGE = 500;

export async function* exportedNodes(store: Store, opts: Pick<ExportOptions, 'origin' | 'meta'>): AsyncGenerator<StoredNode> {
  let afterId: number | undefined;
  for (;;) {
    const page = await store.nodes({
      origin: opts.origin === 'all' ? undefined : opts.origin,
      stem: opts.meta === undefined ? undefined : stem(opts.meta.trim()),
      afterId,
      limit: PAGE,
    });
    // A node the author rejected in the studio is kept for the record, never fed to the engine.
    yield* page.filter((n) => n.review !== 'rejected');
    if (page.length < PAGE) return;
    afterId = page[page.length - 1]!.id;
  }
}

/** Writes the export through `write` (which may wait for a slow stream); returns the node count. */
export async function exportNodes(store: Store, opts: ExportOptions, write: (chunk: string) => Promise<void> | void): Promise<number> {
  let count = 0;
  if (opts.format === 'ane') {
    const all: StoredNode[] = [];
    for await (const n of exportedNodes(store, opts)) all.push(n);
    if (all.length > 0) await write(toAne(all));
    return all.length;
  }
  if (opts.format === 'csv') await write(csvLine(CSV_HEADER));
  for await (const n of exportedNodes(store, opts)) {
    await write(opts.format === 'csv' ? toCsvLine(n) : toJsonLine(n));
    count++;
  }
  return count;
}
