import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type Database from 'better-sqlite3';
import * as frontier from '../../src/store/sqlite/frontier.js';
import { KnownDomains } from '../../src/store/known-domains.js';
import { failedWhere, summaryQueries, WAITING_RETRIES } from '../../src/store/summary.js';
import { SQLITE_FAILURE_KEY } from '../../src/store/sqlite/store.js';
import { CANDIDATE_ROWS } from '../../src/store/sqlite/nodes.js';
import { BAND_ROWS_AFTER } from '../../src/store/sqlite/bands.js';
import { openSqliteDb } from '../../src/store/sqlite/open.js';

/**
 * A page's cost must not grow with the links stored (issue: speed): the statements that lease a
 * host's next links seek the head of one queue through an index and never sort the host's links.
 */
test('SQLite: leasing a host\'s next link seeks an index, whatever the order, and sorts nothing', () =>
  withPlans((plan) => {
    for (const order of ['discovery', 'newest', 'priority'] as const) {
      const pending = plan(frontier.leaseProbes(order).pending, 1, 0, 8);
      assert.match(pending, /USING INDEX links_(frontier|priority) \(domain_id=\?\)/, `${order}: ${pending}`);
      assert.doesNotMatch(pending, /TEMP B-TREE|SCAN/, `${order}: ${pending}`);
      assert.match(plan(frontier.leaseProbes(order).expired, 1, 0, 8), /SEARCH links USING INDEX links_leases \(domain_id=\? AND lease_expires_at<\?\)/);
    }
    assert.match(plan(frontier.LIVE_LEASES, 1, 0), /SEARCH links USING (COVERING )?INDEX links_leases \(domain_id=\? AND lease_expires_at>\?\)/);
  }));

/**
 * The frontier's indexes hold only the links of one status (sql/sqlite/016): a link done leaves
 * them, so its completion rewrites none of their pages. Every statement the frontier and the
 * summary make for links of a status must still find them through such an index, not by reading
 * every link stored. The statements are the store's own, recorded as it runs them.
 */
test('SQLite: every look for links of a status reads the index that holds that status alone', () =>
  withPlans((plan, db) => {
    const seen = recording(db);
    const live = seen.db;
    frontier.addLinks(live, [{ url: 'http://a.test/', host: 'a.test', depth: 0 }], 0, new KnownDomains());
    frontier.claimNextLink(live, 1, 'w1', { leaseMs: 1000, now: 0, order: 'discovery', perHost: 1, gapMs: 0, count: 2 });
    frontier.heartbeat(live, 'w1', { now: 0, leaseMs: 1000, pages: 0 });
    frontier.liveWorkers(live, 0);
    frontier.nextDueAt(live, 1);
    frontier.domainsWithPending(live, 0);
    frontier.leaseOwners(live);
    frontier.releaseLinks(live, 'w1', [1]);
    frontier.releaseLeasesOf(live, 'w1');
    frontier.releaseExpiredLeases(live, 0);
    frontier.requeueRefused(live);
    frontier.retryFailed(live, failedWhere(SQLITE_FAILURE_KEY, ['4xx', 'timeout']));
    for (const sql of Object.values(summaryQueries(SQLITE_FAILURE_KEY))) live.prepare(sql).all();
    live.prepare(WAITING_RETRIES).get(0);
    const byStatus = seen.statements.filter(([sql]) => /\bWHERE\b[^]*\bstatus (=|IN) /.test(sql) && /\bFROM links\b|\bUPDATE links\b/.test(sql));
    assert.ok(byStatus.length >= 12, `statements recorded: ${byStatus.length}`);
    for (const [sql, params] of byStatus) {
      const p = plan(sql, ...params);
      assert.doesNotMatch(p, /\bSCAN (links|l)\b(?! USING)/, `${sql}\n${p}`);
      assert.match(p, /links_(frontier|priority|leases|failed|excluded)|INTEGER PRIMARY KEY/, `${sql}\n${p}`);
    }
  }));

/** The SQL and the parameters of every statement run through the connection it gives. */
function recording(db: Database.Database): { db: Database.Database; statements: [string, unknown[]][] } {
  const statements: [string, unknown[]][] = [];
  const wrap = (sql: string, stmt: Database.Statement): Database.Statement => new Proxy(stmt, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'get' || key === 'all' || key === 'run' || key === 'iterate') {
        return (...args: unknown[]) => {
          statements.push([sql, args]);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  const live = new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return (sql: string) => wrap(sql, target.prepare(sql));
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: live, statements };
}

test('SQLite: a near-copy search reads the band rows of the nodes written since it last read, and its candidates by id, never a scan', () =>
  withPlans((plan) => {
    assert.match(plan(BAND_ROWS_AFTER, 1), /^SEARCH nodes USING INTEGER PRIMARY KEY \(rowid>\?\)$/);
    const texts = plan(CANDIDATE_ROWS, '[1,2]');
    assert.match(texts, /SEARCH nodes USING INTEGER PRIMARY KEY \(rowid=\?\)/, texts);
    assert.doesNotMatch(texts, /nodes USING (COVERING )?INDEX|SCAN nodes/, texts);
  }));

/** The plans SQLite chooses on a new store at the latest schema. */
function withPlans(check: (plan: (sql: string, ...params: unknown[]) => string, db: Database.Database) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-plans-'));
  const db = openSqliteDb(join(dir, 'plans.sqlite'));
  try {
    check((sql, ...params) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; '), db);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
