import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import robotsParserCjs from 'robots-parser';
import { checkRobots, crawlDelay, robotsFromFetch } from '../../src/web/robots.js';

/**
 * Our parser and matcher replace robots-parser (see src/web/robots-parse.ts for why). Where the
 * library is right — plain ASCII files whose groups are separated by rules, agents that are bare
 * tokens, patterns without escapes — both must give the same answer, line number and Crawl-delay.
 */

// Its types declare an ES default export, but the package is CommonJS: the import is the function.
const robotsParser = robotsParserCjs as unknown as typeof robotsParserCjs.default;

const agent = fc.constantFrom('*', 'foobot', 'BarBot');
const pattern = fc
  .array(fc.constantFrom('/', 'a', 'b', '.', '*', 'x'), { minLength: 0, maxLength: 5 })
  .chain((parts) => fc.boolean().map((anchored) => `/${parts.join('')}${anchored ? '$' : ''}`));
const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern).map(([d, p]) => `${d}: ${p}`);
const group = fc
  .tuple(fc.uniqueArray(agent, { minLength: 1, maxLength: 2 }), fc.array(rule, { minLength: 1, maxLength: 4 }), fc.option(fc.nat(30)))
  .map(([agents, rules, delay]) => [...agents.map((a) => `User-agent: ${a}`), ...(delay === null ? [] : [`Crawl-delay: ${delay}`]), ...rules]);
const file = fc.array(group, { maxLength: 4 }).map((groups) => groups.map((g) => g.join('\n')).join('\n\n') + '\n');
const path = fc.array(fc.constantFrom('/', 'a', 'b', '.', 'x', 'html'), { maxLength: 6 }).map((p) => `/${p.join('')}`);

test('same decisions as robots-parser where robots-parser is right', () => {
  fc.assert(
    fc.property(file, path, fc.constantFrom('foobot', 'barbot', 'otherbot'), (text, p, token) => {
      const url = `https://example.org${p}`;
      const theirs = robotsParser('https://example.org/robots.txt', text);
      const ours = checkRobots(robotsFromFetch({ status: 200, body: text }, 0), url, token);
      assert.equal(ours.allowed, theirs.isAllowed(url, token), `${token} ${p}\n${text}`);
      assert.equal(ours.rule?.line ?? -1, theirs.getMatchingLineNumber(url, token), `${token} ${p}\n${text}`);
      // With several Crawl-delays for one agent the library keeps the last; we keep the largest.
      if (text.split('Crawl-delay').length <= 2) {
        assert.equal(crawlDelay(robotsFromFetch({ status: 200, body: text }, 0), token), theirs.getCrawlDelay(token));
      }
    }),
    { numRuns: 500 },
  );
});
