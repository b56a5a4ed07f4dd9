import assert from 'node:assert/strict';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { test } from 'node:test';
import type { HeapSpaceInfo } from 'node:v8';
import { keepHeapUnder, oldGeneration } from '../../src/cli/heap-budget.js';
import { anwc } from '../support/cli.js';

/** Full (mark-compact) collections seen while `fn` runs. */
async function majorCollections(fn: () => Promise<void>): Promise<number> {
  let n = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if ((e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) n++;
  });
  obs.observe({ entryTypes: ['gc'] });
  try {
    await fn();
    await new Promise((ok) => setTimeout(ok, 20));
  } finally {
    obs.disconnect();
  }
  return n;
}

const wait = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

test('a heap past its budget is collected in full; under it, or with no budget, it is left to V8', async () => {
  const over = await majorCollections(async () => {
    const stop = keepHeapUnder(1, 10);
    await wait(120);
    stop();
  });
  assert.ok(over >= 3, `a heap above 1 MB was collected every tick: ${over} full collections`);
  const off = await majorCollections(async () => {
    const stop = keepHeapUnder(0, 10);
    await wait(120);
    stop();
  });
  const under = await majorCollections(async () => {
    const stop = keepHeapUnder(65_536, 10);
    await wait(120);
    stop();
  });
  assert.ok(off <= 1 && under <= 1, `no collections asked for: ${off} and ${under}`);
});

test('the budget is of the old generation: the young one, which a full collection leaves at its size, does not count', () => {
  const space = (space_name: string, space_size: number): HeapSpaceInfo =>
    ({ space_name, space_size, space_used_size: 0, space_available_size: 0, physical_space_size: space_size });
  const MB = 1024 * 1024;
  assert.equal(oldGeneration([space('new_space', 32 * MB), space('old_space', 20 * MB), space('code_space', 2 * MB),
    space('large_object_space', 3 * MB), space('new_large_object_space', 5 * MB)]), 25 * MB);
});

test('--heap-budget takes whole megabytes', async () => {
  const r = await anwc(['harvest', '--heap-budget', '-5', '--db', 'sqlite::memory:']);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'anwc: --heap-budget is not valid (got "-5"); give whole megabytes from 0 to 65,536\n');
});
