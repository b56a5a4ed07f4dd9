import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { semiSpaceFlag } from '../../src/young-generation.js';

/**
 * The narrative action's thread gets a young generation of its own, larger than the one anwc's
 * flag gives the process: measured in a process started with the flag, by the new space each
 * thread ends up with after making garbage (V8 grows it up to twice the semi-space).
 */

const MODULE = new URL('../../src/young-generation.js', import.meta.url).href;

/** Makes garbage with a few survivors in the thread it runs on, then holds its new space in MB as `mb` (`v8` in scope). */
const CHURN = `let keep = [];
for (let i = 0; i < 1e6; i++) { keep.push({ a: i, b: 'x' + i }); if (keep.length > 200000) keep = []; }
const mb = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;`;

/** A worker's code: CHURN, then `mb` to its parent. */
const WORKER = `import v8 from 'node:v8'; import { parentPort } from 'node:worker_threads'; ${CHURN} parentPort.postMessage(mb);`;

/** New space in MB of: the main thread, a thread the helper started for `semiMb`, and a plain thread started after it. */
function newSpaces(nodeArgs: string[], semiMb: number): { main: number; helped: number; after: number } {
  const script = `
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
const { startWorkerWithYoungGeneration } = await import(${JSON.stringify(MODULE)});
const code = new URL('data:text/javascript,' + encodeURIComponent(${JSON.stringify(WORKER)}));
const measure = (w) => new Promise((ok, fail) => { w.once('message', (mb) => { ok(mb); w.terminate(); }); w.once('error', fail); });
const helped = await measure(startWorkerWithYoungGeneration(code, ${semiMb}));
const after = await measure(new Worker(code));
${CHURN}
console.log(JSON.stringify({ main: mb, helped, after }));`;
  const r = spawnSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { main: number; helped: number; after: number };
}

describe('a worker thread\'s young generation', () => {
  it('reads the flag a process was started with, the last one given winning', () => {
    assert.equal(semiSpaceFlag(['--max-semi-space-size=2'], ''), 2);
    assert.equal(semiSpaceFlag(['--max_semi_space_size=6'], ''), 6);
    assert.equal(semiSpaceFlag([], '--max-semi-space-size=4'), 4);
    assert.equal(semiSpaceFlag(['--max-semi-space-size=2'], '--max-semi-space-size=4'), 2);
    assert.equal(semiSpaceFlag(['--max-semi-space-size=2', '--max-semi-space-size=16'], ''), 16);
    assert.equal(semiSpaceFlag(['--max-old-space-size=512', '--max-semi-space-size'], ''), undefined);
    assert.equal(semiSpaceFlag([], ''), undefined);
  });

  it('under a smaller flag, gives the thread its own and leaves the main thread and later threads theirs', () => {
    const s = newSpaces(['--max-semi-space-size=2'], 8);
    assert.equal(s.helped, 16, 'the thread started for 8 MB semi-spaces');
    assert.equal(s.main, 4, 'the main thread keeps the flag\'s');
    assert.equal(s.after, 4, 'a thread started after it gets the flag\'s again');
  });

  it('under a larger flag, leaves it as it is', () => {
    const s = newSpaces(['--max-semi-space-size=16'], 8);
    assert.equal(s.helped, 32);
    assert.equal(s.after, 32);
  });

  it('without the flag, gives it through the thread\'s resource limits', () => {
    const s = newSpaces([], 8);
    assert.equal(s.helped, 16);
  });
});
