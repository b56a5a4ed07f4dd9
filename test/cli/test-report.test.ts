import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

/**
 * `npm test` on a bare clone skips what needs ../shared, Chromium, Galera or root; the skips are
 * gathered at the end, by what is missing, instead of only scattered through the TAP.
 */

/** The environment without NODE_TEST_CONTEXT: a child with it reports to this run, not as a run of its own. */
function ownRun(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

test('npm test ends with what was skipped, grouped by what is missing', () => {
  const script = JSON.parse(readFileSync('package.json', 'utf8')).scripts.test as string;
  const reporter = /--test-reporter=(\S*skip-summary\.js) --test-reporter-destination=stderr/.exec(script);
  assert.ok(reporter, `the test script adds the skip summary on stderr: ${script}`);
  const dir = mkdtempSync(join(tmpdir(), 'anwc-skips-'));
  try {
    const file = join(dir, 'some.test.mjs');
    writeFileSync(file, [
      "import { describe, it } from 'node:test';",
      "describe('corpus', { skip: 'needs shared/corpus' }, () => { it('a', () => {}); });",
      "it('browser', { skip: 'needs Chromium' }, () => {});",
      "it('browser too', { skip: 'needs Chromium' }, () => {});",
      "it('runs', () => {});",
    ].join('\n'));
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', '--test-reporter-destination=stdout', `--test-reporter=${resolve(reporter[1]!)}`, '--test-reporter-destination=stderr', file], { encoding: 'utf8', timeout: 60_000, env: ownRun() });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^# pass 1$/m, 'the TAP still closes the run');
    assert.equal(r.stderr.trim(), ['skipped: 3 suite(s) or test(s), by what is missing', '  1 in some.test.mjs: needs shared/corpus', '  2 in some.test.mjs: needs Chromium'].join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
