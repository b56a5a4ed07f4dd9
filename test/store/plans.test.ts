import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LIVE_LEASES, leaseProbes } from '../../src/store/sqlite/frontier.js';
import { CANDIDATE_ROWS } from '../../src/store/sqlite/nodes.js';
import { BAND_ROWS_AFTER } from '../../src/store/sqlite/bands.js';
import { openSqliteDb } from '../../src/store/sqlite/open.js';

/**
 * A page's cost must not grow with the links stored (issue: speed): the statements that lease a
 * host's next links seek the head of one queue through an index and never sort the host's links.
 */
test('SQLite: leasing a host\'s next link seeks an index, whatever the order, and sorts nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-plans-'));
  const db = openSqliteDb(join(dir, 'plans.sqlite'));
  try {
    const plan = (sql: string, ...params: number[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params.length > 0 ? params : [1, 0])) as { detail: string }[]).map((r) => r.detail).join('; ');
    for (const order of ['discovery', 'newest', 'priority'] as const) {
      const pending = plan(leaseProbes(order).pending, 1, 0, 8);
      assert.match(pending, /USING INDEX links_(frontier|priority) \(domain_id=\? AND status=\?\)/, `${order}: ${pending}`);
      assert.doesNotMatch(pending, /TEMP B-TREE|SCAN/, `${order}: ${pending}`);
      assert.match(plan(leaseProbes(order).expired, 1, 0, 8), /USING INDEX links_(leases|frontier|priority) \((status|domain_id)=\?/);
    }
    assert.match(plan(LIVE_LEASES), /SEARCH links USING (COVERING )?INDEX/);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SQLite: a near-copy search reads the band rows of the nodes written since it last read, and its candidates by id, never a scan', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-plans-'));
  const db = openSqliteDb(join(dir, 'plans.sqlite'));
  try {
    const plan = (sql: string, ...params: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
    assert.match(plan(BAND_ROWS_AFTER, 1), /^SEARCH node_bands USING PRIMARY KEY \(node_id>\?\)$/);
    const texts = plan(CANDIDATE_ROWS, '[1,2]');
    assert.match(texts, /SEARCH nodes USING INTEGER PRIMARY KEY \(rowid=\?\)/, texts);
    assert.doesNotMatch(texts, /nodes USING (COVERING )?INDEX|SCAN nodes/, texts);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
