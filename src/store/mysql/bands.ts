import { BANDS_EDITED, BandIndex } from '../band-index.js';
import { CandidateCache } from '../candidate-cache.js';
import { all, type Conn, type Statement } from './conn.js';
import { keysOfBandsColumn, type Row } from '../rows.js';

/** What curateNode runs when it rewrites a node's band keys. */
export const BUMP_BANDS_EDITED = `INSERT INTO settings (\`key\`, \`value\`) VALUES ('${BANDS_EDITED}', '1')
  ON DUPLICATE KEY UPDATE \`value\` = CAST(CAST(\`value\` AS UNSIGNED) + 1 AS CHAR)`;

/** Nodes a read takes at most: a large store is read whole in slices, not held as one answer. */
const SYNC_NODES = 10_000;

/**
 * The edit counter, then the band keys of the nodes written after a given node, in one statement
 * (one round trip, and one answer on a Galera node too). A node's keys come as one row.
 */
const sync = (nodes: number) => `SELECT 0 AS node_id, (SELECT \`value\` FROM settings WHERE \`key\` = '${BANDS_EDITED}') AS band_keys
  UNION ALL
  (SELECT id, bands FROM nodes WHERE id > ? AND bands IS NOT NULL ORDER BY id LIMIT ${nodes})`;

/**
 * How long after a read the same ids are read once more. Ids are given as rows are inserted but
 * seen by others only at commit, so a page committed after a later one's would be passed over by a
 * read in between; a transaction outlives this only when it is retried, and then it writes its
 * nodes again under new ids.
 */
export const CATCH_UP_MS = 5_000;

/**
 * The nodes' band keys held in memory (BandIndex) for the near-copy search on MySQL, as on SQLite
 * (sqlite/bands.ts): on the crawl bench the server's look-ups by key and its inserts in key order
 * were about a third of its CPU a page (issue: speed). The keys this store writes go in as it
 * writes them; before each search, the keys of the nodes written since by any process are read,
 * and every CATCH_UP_MS those of the last interval again, for the transactions that committed out
 * of id order. An author's edit of a node's text makes every process read them all again
 * (BANDS_EDITED). A deleted node's keys stay until then: its id is not given again on MySQL, and
 * the search drops a candidate it cannot read.
 */
export class MysqlBandCache {
  private index = new BandIndex();
  /** The highest node id read. */
  private seen = 0;
  /** The highest node id read at the last catch-up, and when the next one is due. */
  private settled = 0;
  private catchUpAt = 0;
  private edited: string | null = null;
  /** The candidates read last (candidate-cache.ts), emptied with the index. */
  readonly candidates = new CandidateCache();

  private readonly statement: string;

  constructor(private readonly now: () => number = Date.now, private readonly sliceNodes = SYNC_NODES) {
    this.statement = sync(sliceNodes);
  }

  /**
   * The read that brings the index up to date, for a caller that sends it in one round trip with
   * a statement of its own; its answer goes to synced(). From the highest id read, or, every
   * CATCH_UP_MS, from the highest one read at the catch-up before.
   */
  read(): Statement {
    const now = this.now();
    let from = this.seen;
    if (now >= this.catchUpAt) {
      from = this.settled;
      this.settled = this.seen;
      this.catchUpAt = now + CATCH_UP_MS;
    }
    return [this.statement, [from]];
  }

  /** The index with the answer to a read() in, and what remains read on the connection. */
  async synced(c: Conn, read: Statement, answer: Row[]): Promise<BandIndex> {
    let from = Number(read[1][0]);
    for (;;) {
      const [state, ...rows] = answer;
      const edited = state?.band_keys == null ? null : String(state.band_keys);
      if (edited !== this.edited) {
        this.edited = edited;
        this.candidates.clear();
        // A read from the first node takes the table as it is; one since a later node, again whole.
        if (from > 0) {
          this.index = new BandIndex();
          this.seen = this.settled = 0;
          this.catchUpAt = 0;
          return this.sync(c);
        }
      }
      for (const r of rows) {
        const id = Number(r.node_id);
        for (const key of keysOfBandsColumn(r.band_keys)) this.index.add(key, id);
        from = Math.max(from, id);
      }
      this.seen = Math.max(this.seen, from);
      if (rows.length < this.sliceNodes) return this.index;
      answer = await all(c, this.statement, [from]);
    }
  }

  async sync(c: Conn): Promise<BandIndex> {
    const read = this.read();
    return this.synced(c, read, await all(c, ...read));
  }

  /** Band rows ([key, node id]) this store has just written: found by its next search without a read. */
  wrote(rows: readonly (readonly [number, number])[]): void {
    for (const [key, id] of rows) this.index.add(key, id);
  }
}
