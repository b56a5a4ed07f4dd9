import type Database from 'better-sqlite3';
import { BANDS_EDITED, BandIndex } from '../band-index.js';
import { CandidateCache } from '../candidate-cache.js';
import { keysOfBandsColumn, type Row } from '../rows.js';

/** The band keys of the nodes written after a given one (those with keys), in id order. */
export const BAND_ROWS_AFTER = 'SELECT id, bands FROM nodes WHERE id > ? AND bands IS NOT NULL';
const BANDS_STATE = `SELECT (SELECT MAX(id) FROM nodes) AS top, (SELECT value FROM settings WHERE key = '${BANDS_EDITED}') AS edited`;
/** What the delete trigger of sql/sqlite/017 runs, for an edit that deletes no node. */
export const BUMP_BANDS_EDITED = `INSERT OR REPLACE INTO settings (key, value) VALUES ('${BANDS_EDITED}',
  COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = '${BANDS_EDITED}'), 0) + 1)`;

/**
 * The nodes' band keys held in memory (BandIndex) for the near-copy search, brought up to date
 * before each search with the keys of the nodes written since, by this process or another on the
 * same file: under SQLite's one writer a node's id is given and committed before the next one's,
 * so the nodes after the highest id read are all that is new. Read again whole when keys were
 * rewritten or a node with keys deleted (BANDS_EDITED): an edited text has new keys under an old
 * id, and a deleted node's id goes to the next node written.
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
   * A node's band keys as this connection writes them, filed without being read back, and the
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
      // A read outside a transaction may see nodes past `top`; every node up to it was committed
      // before it was read (one writer, ids in order), so an author's node, which has no keys,
      // is not looked for again.
      for (const [id, keys] of db.prepare(BAND_ROWS_AFTER).raw().iterate(this.seen) as IterableIterator<[number, string]>) {
        for (const key of keysOfBandsColumn(keys)) this.index.add(key, Number(id));
        if (id > this.seen) this.seen = Number(id);
      }
      if (top > this.seen) this.seen = top;
    }
    return this.index;
  }
}
