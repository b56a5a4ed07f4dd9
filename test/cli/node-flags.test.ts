import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { NODE_FLAGS, withNodeFlags } from '../../src/cli/node-flags.js';
import { CLI } from '../support/cli.js';

/**
 * `anwc` as the system starts it: the built main.js run as a program (the build makes it one, so
 * that `npx anwc` runs it even from a cache that linked an earlier build), its `#!` line read by
 * the kernel. A hook loaded first reports, at exit, the flags the process got and its young
 * generation after some garbage.
 */
test('anwc starts Node with NODE_FLAGS: a young generation of 2 MB a semi-space, an old one that grows by half', { skip: process.platform === 'win32' && 'a #! line' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-flags-'));
  try {
    const hook = join(dir, 'hook.cjs');
    writeFileSync(hook, `process.on('exit', () => {
      let keep = [];
      for (let i = 0; i < 300000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 1000) keep = []; }
      const young = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      process.stderr.write(JSON.stringify({ execArgv: process.execArgv, young }));
    });`);
    const r = spawnSync(CLI, ['--version'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: `--require ${hook}` } });
    assert.equal(r.status, 0, r.stderr);
    const seen = JSON.parse(r.stderr) as { execArgv: string[]; young: number };
    assert.deepEqual(seen.execArgv, NODE_FLAGS);
    // Two semi-spaces; V8's default grows to 32 MB under this garbage.
    assert.ok(seen.young <= 4 * 1024 * 1024, `young generation ${seen.young} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a process anwc starts again gets each flag it was not given, and keeps the value it was', () => {
  assert.deepEqual(withNodeFlags([]), NODE_FLAGS);
  assert.deepEqual(withNodeFlags(['--enable-source-maps']), ['--enable-source-maps', ...NODE_FLAGS]);
  for (const flag of NODE_FLAGS) {
    const own = `${flag.split('=')[0]}=7`;
    assert.deepEqual(withNodeFlags([own]), [own, ...NODE_FLAGS.filter((f) => f !== flag)]);
  }
  const others = NODE_FLAGS.filter((f) => !f.startsWith('--max-semi-space-size='));
  assert.deepEqual(withNodeFlags(['--max_semi_space_size=8']), ['--max_semi_space_size=8', ...others]);
});
