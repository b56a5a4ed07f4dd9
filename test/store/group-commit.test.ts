import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreUnavailableError } from '../../src/errors.js';
import { GroupCommit } from '../../src/store/group-commit.js';

/** A log of the transactions a GroupCommit asked for: the items of each. */
function recorder(fail: (items: number[]) => Error | undefined) {
  const calls: number[][] = [];
  const group = new GroupCommit<number, number>((items) => {
    calls.push(items);
    const err = fail(items);
    if (err) throw err;
    return items.map((i) => i * 10);
  });
  return { group, calls };
}

test('the writes of one turn are committed together, each result to its own caller; the next turn starts a new group', async () => {
  const { group, calls } = recorder(() => undefined);
  assert.deepEqual(await Promise.all([1, 2, 3].map((i) => group.submit(i))), [10, 20, 30]);
  assert.deepEqual(await group.submit(4), 40);
  assert.deepEqual(calls, [[1, 2, 3], [4]]);
});

test('a write that fails makes its group run again one by one: only it fails', async () => {
  const { group, calls } = recorder((items) => (items.includes(2) ? new Error('no link 2') : undefined));
  const results = await Promise.allSettled([1, 2, 3].map((i) => group.submit(i)));
  assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), [10, 'no link 2', 30]);
  assert.deepEqual(calls, [[1, 2, 3], [1], [2], [3]]);
});

test('a store that went away fails the whole group at once, without a try for each write', async () => {
  const { group, calls } = recorder(() => new StoreUnavailableError('the SQLite database stayed locked by another writer'));
  const results = await Promise.allSettled([1, 2, 3].map((i) => group.submit(i)));
  assert.ok(results.every((r) => r.status === 'rejected' && r.reason instanceof StoreUnavailableError));
  assert.equal(calls.length, 1);
});

test('a lone write that fails is tried once: there is no group to split', async () => {
  const { group, calls } = recorder(() => new Error('no link 7'));
  await assert.rejects(group.submit(7), /no link 7/);
  assert.deepEqual(calls, [[7]]);
});

test('a group is committed once, however many writes joined it', async () => {
  const { group, calls } = recorder(() => undefined);
  await Promise.all([1, 2, 3, 4, 5].map((i) => group.submit(i)));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(calls, [[1, 2, 3, 4, 5]]);
});
