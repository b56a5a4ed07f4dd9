import type Database from 'better-sqlite3';
import { BANDS_EDITED, BandIndex } from '../band-index.js';
import { CandidateCache } from '../candidate-cache.js';
import type { Row } from '../rows.js';

/** The band rows of nodes written after a given one, in the table's own order (node_id, band_key). */
export const BAND_ROWS_AFTER = 'SELECT node_id, band_key FROM node_bands WHERE node_id > ?';
const BANDS_STATE = `SELECT (SELECT MAX(node_id) FROM node_bands) AS top, (SELECT value FROM settings WHERE key = '${BANDS_EDITED}') AS edited`;
/** What the delete trigger of sql/sqlite/014 runs, for an edit that may delete no row. */
export const BUMP_BANDS_EDITED = `INSERT OR REPLACE INTO settings (key, value) VALUES ('${BANDS_EDITED}',
  COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = '${BANDS_EDITED}'), 0) + 1)`;

/**
 * The node_bands table held in memory (BandIndex) for the near-copy search, brought up to date
 * before each search with the rows of the nodes written since, by this process or another on the
 * same file: under SQLite's one writer a node's id is given and committed before the next one's,
 * so the rows after the highest id read are all that is new. Read again whole when rows were
 * rewritten or deleted (BANDS_EDITED): an edited text has new keys under an old id, and a
 * deleted node's id goes to the next node written.
 */
export class BandCache {
  private index = new BandIndex();
  private seen = 0;
  private edited: unknown = null;
  /** The candidates read last (candidate-cache.ts), emptied with the index. */
  readonly candidates = new CandidateCache();

  /** Read the table whole at the next search, and the candidates anew. */
  forget(): void {
    this.index = new BandIndex();
    this.seen = 0;
    this.candidates.clear();
  }

  /**
   * A node's band rows as this connection writes them, filed without being read back, and the
   * mark moved past the node. Only in the transaction whose search brought the index up to date
   * (completePage searches every node it writes rows for): under SQLite's one writer, no other
   * node can have been written in between.
   */
  wrote(keys: readonly number[], id: number): void {
    for (const key of keys) this.index.add(key, id);
    if (id > this.seen) this.seen = id;
  }

  sync(db: Database.Database): BandIndex {
    const state = db.prepare(BANDS_STATE).get() as Row;
    const top = Number(state.top ?? 0);
    if (state.edited !== this.edited) {
      this.forget();
      this.edited = state.edited;
    }
    if (top > this.seen) {
      // The highest id read is the mark, not `top`: a read outside a transaction may see rows past it.
      for (const [id, key] of db.prepare(BAND_ROWS_AFTER).raw().iterate(this.seen) as IterableIterator<[number, number]>) {
        this.index.add(Number(key), Number(id));
        if (id > this.seen) this.seen = Number(id);
      }
    }
    return this.index;
  }
}
