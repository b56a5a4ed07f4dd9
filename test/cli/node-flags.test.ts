import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { flagsToSet, RUNTIME_FLAGS } from '../../src/cli/node-flags.js';
import { CLI } from '../support/cli.js';

const FULL_CLI = join(CLI, '..', 'cli.js');

/**
 * A hook loaded first that, once the command is over, grows a heap of live objects to some
 * 300 MB and reports how many full collections that took: V8 grows the old generation by up to
 * four times after a quick one, by half at most under the cap.
 */
function withHook<T>(run: (hook: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-flags-'));
  try {
    const hook = join(dir, 'hook.cjs');
    writeFileSync(hook, `let done = false;
      process.on('beforeExit', () => {
        if (done) return;
        done = true;
        const { PerformanceObserver, constants } = require('node:perf_hooks');
        let majors = 0;
        const o = new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++; });
        o.observe({ entryTypes: ['gc'] });
        const keep = [];
        for (let i = 0; i < 2500; i++) keep.push(Array.from({ length: 4096 }, (_, j) => ({ j })));
        setTimeout(() => { o.disconnect(); process.stderr.write(JSON.stringify({ majors, kept: keep.length, execArgv: process.execArgv })); }, 20);
      });`);
    return run(hook);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Seen { majors: number; execArgv: string[] }

function seen(r: ReturnType<typeof spawnSync>): Seen {
  assert.equal(r.status, 0, String(r.stderr));
  return JSON.parse(String(r.stderr)) as Seen;
}

/**
 * `anwc` as the system starts it: the built main.js run as a program (the build makes it one, so
 * that `npx anwc` runs it even from a cache that linked an earlier build), its `#!` line read by
 * the kernel.
 */
test('anwc starts Node with no flag of its own: a heap flag on the command line would slow every start', { skip: process.platform === 'win32' && 'a #! line' }, () => {
  withHook((hook) => {
    const r = spawnSync(CLI, ['--version'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: `--require ${hook}` } });
    assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
    assert.deepEqual(seen(r).execArgv, []);
  });
});

test('the full CLI caps the old generation\'s growth from inside, unless the user set the flag', () => {
  withHook((hook) => {
    const run = (...flags: string[]) => seen(spawnSync(process.execPath, [...flags, '--require', hook, FULL_CLI, 'stem', 'walking'], { encoding: 'utf8' }));
    const capped = run();
    // 0 is V8's own default: the user's value is kept, and V8 grows the heap as it would.
    const own = run('--heap-growing-percent=0');
    assert.ok(capped.majors > own.majors, `full collections growing the heap: ${capped.majors} under anwc's cap, ${own.majors} at V8's default`);
  });
});

test('each flag the user did not set, whether on the command line or in NODE_OPTIONS, and in either spelling', () => {
  assert.deepEqual(flagsToSet([], ''), RUNTIME_FLAGS);
  assert.deepEqual(flagsToSet(['--enable-source-maps'], '--max-old-space-size=512'), RUNTIME_FLAGS);
  for (const flag of RUNTIME_FLAGS) {
    const name = flag.split('=')[0]!;
    assert.deepEqual(flagsToSet([`${name}=7`], ''), RUNTIME_FLAGS.filter((f) => f !== flag));
    assert.deepEqual(flagsToSet([], `--require x.cjs ${name}=7`), RUNTIME_FLAGS.filter((f) => f !== flag));
    assert.deepEqual(flagsToSet([`--${name.slice(2).replaceAll('-', '_')}=7`], ''), RUNTIME_FLAGS.filter((f) => f !== flag));
  }
});
