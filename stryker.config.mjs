/**
 * The mutation run (`npm run mutate`): does a test go red when a line it guards is changed? Stryker
 * changes the TypeScript sources below one operator, condition or constant at a time (all the
 * changes are compiled in once by tsc and switched on one by one), and the tap runner runs the
 * compiled node:test files that reach the changed line. A change no test notices "survived": a
 * gap in the tests, or a change that cannot alter behaviour (a bound that only saves work). Code
 * that only the command-line tests reach (they run anwc as a child process) counts as not
 * covered, since Stryker's coverage does not see into children: the set's unit tests must reach it.
 *
 * The set is the thesis's core, whose tests run in seconds: the roulette wheel, the block rules,
 * the topic profiles, the robots.txt matcher, the near-copy index, the group commit, the
 * walker's frontier (which domains the wheel may draw), its scope and the harvest's own
 * constraints (which links it keeps: depth, scheme, URL length, hosts, binary extensions), the
 * times and ages an activity file writes (W4's universal time, ISO dates and durations), and what
 * stands between a hostile link and a connection: URL normalization, the address policy, the
 * special-purpose address ranges it refuses, the --resolve mappings, the bound on a
 * server's Retry-After, and politeness (how many requests a host gets at once, and when it is
 * asked again); and what stands between hostile bytes and what we write: a body's
 * decoding under its caps, a page's charset (its meta prescan too), an author's markup file
 * (its encoding, lexer and parser), HTML and XML escaping, the archive's file names and the links of its pages; and what
 * decides a result a user acts on: robots.txt's policy for each answer (and how the file is fetched and kept), when a failure is tried
 * again, each link's state in a maintenance report, the author/crawler mix, the export formats,
 * the counts of a run's summary and of `anwc stats`, what the progress line says a walk waits for
 * (a retry not due, a host's delay), and the walk's fetch step (what the walks of one
 * run answer from each other's results, and what must still go out: 73 % of its mutants killed by
 * its two in-process test files, in 1.5 minutes). The walk engine's own tests start
 * servers and wait on real timers (about 20 s a run, under 3 s of it CPU); to mutate it, add
 * src/walk/engine.ts and src/walk/walk.ts below with the tests that run walks in-process
 * (walk/engine, engine-requests, walk, fetch-step, fetch-step-shared, narrative; harvest/budgets,
 * copies, relevance) and raise concurrency to 6, which two cores bear for such tests: their 576
 * mutants took 32 minutes so, 76 % killed or timed out.
 */
export default {
  testRunner: 'tap',
  buildCommand: 'npx tsc -p .',
  // A mutant may not type-check (a string where a number was); it runs all the same.
  disableTypeChecks: 'src/**/*.ts',
  mutate: [
    'src/walk/strategies/*.ts',
    'src/text/heuristics.ts',
    'src/text/rules/*.ts',
    'src/text/profile.ts',
    'src/text/relevance.ts',
    'src/web/robots-match.ts',
    'src/store/band-index.ts',
    'src/store/group-commit.ts',
    'src/walk/frontier.ts',
    'src/walk/scope.ts',
    'src/web/url.ts',
    'src/web/address.ts',
    'src/web/resolve-mappings.ts',
    'src/web/ip-ranges.ts',
    'src/web/retry-after.ts',
    'src/store/near-copies.ts',
    'src/web/body.ts',
    'src/html/decode.ts',
    'src/html/prescan.ts',
    'src/markup/decode.ts',
    'src/markup/lex.ts',
    'src/markup/parse.ts',
    'src/html/escape.ts',
    'src/archive/layout.ts',
    'src/web/robots.ts',
    'src/walk/retry.ts',
    'src/maintain/report.ts',
    'src/feed/mix.ts',
    'src/feed/formats.ts',
    'src/walk/stats.ts',
    'src/cli/report/summary.ts',
    'src/walk/fetch-step.ts',
    'src/web/robots-fetch.ts',
    'src/web/robots-cache.ts',
    'src/walk/waiting.ts',
    'src/walk/delay-watch.ts',
    'src/archive/remap.ts',
    'src/web/politeness.ts',
    'src/walk/constraints/builtin.ts',
    'src/walk/constraints/time.ts',
  ],
  tap: {
    testFiles: [
      'dist/test/walk/roulette.test.js',
      'dist/test/walk/strategy.test.js',
      'dist/test/text/heuristics.test.js',
      'dist/test/text/profile.test.js',
      'dist/test/text/relevance.test.js',
      'dist/test/walk/narrative.test.js',
      'dist/test/web/robots-match.test.js',
      'dist/test/web/robots.test.js',
      'dist/test/store/bands.test.js',
      'dist/test/store/band-cache.test.js',
      'dist/test/store/group-commit.test.js',
      'dist/test/walk/frontier.test.js',
      'dist/test/walk/scope.test.js',
      'dist/test/web/url.test.js',
      'dist/test/web/address.test.js',
      'dist/test/web/ip-ranges.test.js',
      'dist/test/web/retry-after.test.js',
      'dist/test/store/near-copies.test.js',
      'dist/test/web/body.test.js',
      'dist/test/html/decode.test.js',
      'dist/test/markup/decode.test.js',
      'dist/test/markup/errors.test.js',
      'dist/test/markup/parse.test.js',
      'dist/test/markup/roundtrip.test.js',
      'dist/test/html/escape.test.js',
      'dist/test/archive/layout.test.js',
      'dist/test/walk/retry.test.js',
      'dist/test/maintain/report.test.js',
      'dist/test/maintain/task.test.js',
      'dist/test/maintain/revalidate.test.js',
      'dist/test/maintain/sites.test.js',
      'dist/test/feed/pick.test.js',
      'dist/test/feed/formats.test.js',
      'dist/test/cli/run-summary.test.js',
      'dist/test/walk/fetch-step.test.js',
      'dist/test/walk/fetch-step-shared.test.js',
      'dist/test/web/robots-fetch.test.js',
      'dist/test/web/robots-cache.test.js',
      'dist/test/walk/waiting.test.js',
      'dist/test/walk/delay-watch.test.js',
      'dist/test/archive/remap.test.js',
      'dist/test/web/politeness.test.js',
      'dist/test/walk/constraint.test.js',
      'dist/test/walk/time.test.js',
    ],
  },
  ignorePatterns: ['dist', '.stryker-tmp', 'reports'],
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  concurrency: 2,
  timeoutMS: 20000,
};
