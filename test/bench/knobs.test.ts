import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A bench knob that is not a count ends the bench at once, as a bad flag ends a command. */

const RUN = fileURLToPath(new URL('../../bench/run.js', import.meta.url));

/** `code` evaluated in a process whose environment has `env`, with the readers of bench/knobs.js in scope. */
function withKnobs(env: Record<string, string>, code: string) {
  const knobs = new URL('../../bench/knobs.js', import.meta.url).href;
  return spawnSync(process.execPath, ['--input-type=module', '-e', `const { builtCheckout, count, counts } = await import(${JSON.stringify(knobs)}); ${code}`], {
    encoding: 'utf8', env: { ...process.env, ...env },
  });
}

describe('bench knobs', () => {
  it('reads a count, a list of counts, and the default when unset or empty', () => {
    const r = withKnobs({ K_A: '250', K_LIST: '10, 200', K_EMPTY: '' },
      "console.log(JSON.stringify([count('K_A', 5), counts('K_LIST', '1'), count('K_UNSET', 7), count('K_EMPTY', 8), counts('K_EMPTY', '3,4'), count('K_ZERO', 0, 0)]))");
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [250, [10, 200], 7, 8, [], 0]);
  });

  for (const [value, min] of [['abc', 1], ['0', 1], ['-3', 0], ['2.5', 1], ['1e3', 1]] as const) {
    it(`refuses ${JSON.stringify(value)} where ${min} or more is asked, in one line with exit code 2`, () => {
      const r = withKnobs({ K_BAD: value }, `count('K_BAD', 5, ${min}); console.log('ran on')`);
      assert.equal(r.status, 2);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `bench: K_BAD is not valid (got ${JSON.stringify(value)}); give a whole number of ${min} or more\n`);
    });
  }

  it('refuses a list with one bad item, naming the whole value', () => {
    const r = withKnobs({ K_LIST: '1000,ten' }, "counts('K_LIST', '1'); console.log('ran on')");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^bench: K_LIST is not valid \(got "1000,ten"\)/);
  });

  it('reads a built checkout as its CLI\'s path, nothing when unset, and refuses a folder with no build in one line', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const r = withKnobs({ K_BASE: root }, "console.log(JSON.stringify([builtCheckout('K_BASE'), builtCheckout('K_UNSET')]))");
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [join(root, 'dist', 'src', 'cli', 'main.js'), null]);
    const bad = withKnobs({ K_BASE: join(root, 'src') }, "builtCheckout('K_BASE'); console.log('ran on')");
    assert.equal(bad.status, 2);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /^bench: K_BASE names no built anwc \(no .*dist\/src\/cli\/main\.js\); give a checkout where npm ci and npm run build were run\n$/);
  });

  it('ends a bench named by run.js before it measures anything', () => {
    const r = spawnSync(process.execPath, [RUN, 'crawl'], { encoding: 'utf8', env: { ...process.env, BENCH_CRAWL_PAGES: 'lots' } });
    assert.equal(r.status, 2);
    assert.doesNotMatch(r.stdout, /\| client \|/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /BENCH_CRAWL_PAGES is not valid \(got "lots"\)/);
  });
});
