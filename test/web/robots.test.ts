import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ROBOTS_MAX_AGE_MS,
  ROBOTS_MAX_BYTES,
  ROBOTS_RETRY_BASE_MS,
  checkRobots,
  crawlDelay,
  isRobotsRules,
  matchRobots,
  productToken,
  robotsFromFetch,
  robotsSitemaps,
  type RobotsRules,
} from '../../src/web/robots.js';

const T0 = Date.UTC(2024, 0, 1);
const rulesOf = (body: string | Uint8Array) => robotsFromFetch({ status: 200, body }, T0);
const allowed = (rules: RobotsRules, url: string, agent = 'anwc/0.1 (+https://example.org/anwc)') =>
  checkRobots(rules, url, agent).allowed;

test('4xx means unavailable: everything allowed, kept for 24 h', () => {
  for (const status of [400, 401, 403, 404, 410, 451]) {
    const rules = robotsFromFetch({ status, body: 'User-agent: *\nDisallow: /\n' }, T0);
    assert.equal(rules.kind, 'allow-all', `HTTP ${status}`);
    assert.equal(rules.expiresAt, T0 + ROBOTS_MAX_AGE_MS);
    assert.equal(rules.retryAfter, undefined);
    const d = checkRobots(rules, 'https://example.org/private', 'anwc');
    assert.equal(d.allowed, true);
    assert.match(d.reason, new RegExp(`unavailable \\(HTTP ${status}\\)`));
  }
});

test('a redirect chain the fetcher gave up on (3xx) is unavailable: allow all', () => {
  const rules = robotsFromFetch({ status: 301 }, T0);
  assert.equal(rules.kind, 'allow-all');
  assert.equal(allowed(rules, 'https://example.org/x'), true);
});

test('5xx, 429 and network errors disallow all, with a retry time that grows', () => {
  for (const result of [{ status: 500 }, { status: 503 }, { status: 429 }, { error: 'ECONNRESET' }, { status: 199 }]) {
    const rules = robotsFromFetch(result, T0);
    assert.equal(rules.kind, 'disallow-all', JSON.stringify(result));
    assert.equal(rules.retryAfter, T0 + ROBOTS_RETRY_BASE_MS);
    assert.equal(rules.expiresAt, rules.retryAfter, 'the entry goes stale when it is time to retry');
    const d = checkRobots(rules, 'https://example.org/', 'anwc');
    assert.equal(d.allowed, false);
    assert.match(d.reason, /unreachable/);
    assert.equal(rules.cause, 'error' in result ? 'network error: ECONNRESET' : `HTTP ${result.status}`, 'the cause names the failure');
    assert.equal(rules.status, 'error' in result ? undefined : result.status, 'the status, when the server answered');
  }
  let rules = robotsFromFetch({ status: 503 }, T0);
  const delays: number[] = [];
  for (let i = 0; i < 12; i++) {
    delays.push(rules.retryAfter! - rules.fetchedAt);
    rules = robotsFromFetch({ status: 503 }, rules.retryAfter!, rules);
  }
  assert.deepEqual(delays.slice(0, 3), [ROBOTS_RETRY_BASE_MS, 2 * ROBOTS_RETRY_BASE_MS, 4 * ROBOTS_RETRY_BASE_MS]);
  assert.ok(delays.every((d, i) => i === 0 || d >= delays[i - 1]!), 'never shrinks');
  assert.ok(delays.every((d) => d <= ROBOTS_MAX_AGE_MS), 'never past 24 h');
  const recovered = robotsFromFetch({ status: 200, body: '' }, T0, rules);
  assert.equal(recovered.failures, 0);
  assert.equal(robotsFromFetch({ status: 503 }, T0, recovered).retryAfter, T0 + ROBOTS_RETRY_BASE_MS);
});

test('a Retry-After on an unreachable robots.txt sets when it is asked again, and the failures still count', () => {
  let rules = robotsFromFetch({ status: 429, retryAfterMs: 1000 }, T0);
  assert.deepEqual([rules.kind, rules.retryAfter, rules.expiresAt, rules.failures], ['disallow-all', T0 + 1000, T0 + 1000, 1]);
  rules = robotsFromFetch({ status: 503, retryAfterMs: 0 }, T0, rules);
  assert.deepEqual([rules.retryAfter, rules.failures], [T0, 2], 'the server may say now');
  rules = robotsFromFetch({ status: 503 }, T0, rules);
  assert.equal(rules.retryAfter, T0 + 4 * ROBOTS_RETRY_BASE_MS, 'without one, the doubling resumes where the count stands');
});

test('no rules ever live longer than 24 h', () => {
  for (const result of [{ status: 200, body: 'User-agent: *\nDisallow: /x\n' }, { status: 404 }, { status: 500 }, { error: 'x' }]) {
    let rules = robotsFromFetch(result, T0);
    for (let i = 0; i < 30; i++) rules = robotsFromFetch(result, T0, rules);
    assert.ok(rules.expiresAt > T0 && rules.expiresAt - T0 <= ROBOTS_MAX_AGE_MS, JSON.stringify(result));
  }
});

test('a 600 KiB robots.txt is cut at the last full line within 500 KiB', () => {
  const head = 'User-agent: *\nDisallow: /early\n';
  const filler: string[] = [];
  let size = head.length;
  for (let i = 0; size < 600 * 1024; i++) {
    const line = `Disallow: /filler/${i}/${'x'.repeat(40)}\n`;
    filler.push(line);
    size += line.length;
  }
  const body = `${head}${filler.join('')}Disallow: /late\n`;
  for (const form of [body, Buffer.from(body)]) {
    const rules = rulesOf(form);
    assert.equal(rules.truncated, true);
    const bytes = Buffer.byteLength(rules.text);
    assert.ok(bytes <= ROBOTS_MAX_BYTES && bytes > ROBOTS_MAX_BYTES - 100, `kept ${bytes} bytes`);
    assert.ok(rules.text.endsWith('\n'), 'ends at a line end');
    assert.ok(body.startsWith(rules.text), 'a prefix of the body');
    assert.equal(allowed(rules, 'https://example.org/early'), false);
    assert.equal(allowed(rules, 'https://example.org/late'), true, 'the rule past the cap is not read');
  }
  assert.equal(rulesOf(head).truncated, false);
});

test('/robots.txt is always allowed, even when its rules disallow it', () => {
  const rules = rulesOf('User-agent: asdfbot\nDisallow: /\n');
  assert.equal(matchRobots(rules, 'http://m.example.com/robots.txt', 'asdfbot').allowed, false);
  const d = checkRobots(rules, 'http://m.example.com/robots.txt', 'asdfbot');
  assert.equal(d.allowed, true);
  assert.equal(d.reason, '/robots.txt is always allowed');
  assert.equal(checkRobots(robotsFromFetch({ status: 503 }, T0), 'https://example.org/robots.txt', 'anwc').allowed, true);
  assert.equal(checkRobots(rules, 'http://m.example.com/robots.txt.bak', 'asdfbot').allowed, false);
});

test('the product token is the leading letters, "_" and "-", case-insensitive, on both sides', () => {
  assert.equal(productToken('anwc/0.1 (+https://example.org/anwc)'), 'anwc');
  assert.equal(productToken('  Foo-Bar_baz 2.0'), 'foo-bar_baz');
  assert.equal(productToken('*'), '');
  const rules = rulesOf('User-agent: *\nDisallow: /\n\nUser-agent: ANWC/2.0 (ignored)\nDisallow: /private\n');
  assert.equal(allowed(rules, 'https://example.org/public'), true);
  assert.equal(allowed(rules, 'https://example.org/private'), false);
  assert.equal(allowed(rules, 'https://example.org/public', 'AnWc'), true);
  assert.equal(allowed(rules, 'https://example.org/public', 'otherbot/1.0'), false, 'others fall back to *');
  assert.equal(allowed(rules, 'https://example.org/public', 'anwcx'), false, 'no prefix matching');
});

test('a specific group replaces * rather than merging with it; groups of one agent merge', () => {
  const rules = rulesOf('User-agent: *\nDisallow: /a\nUser-agent: anwc\nDisallow: /b\n\nUser-agent: anwc\nDisallow: /c\n');
  assert.equal(allowed(rules, 'https://e.org/a'), true);
  assert.equal(allowed(rules, 'https://e.org/b'), false);
  assert.equal(allowed(rules, 'https://e.org/c'), false);
});

test('Sitemap and unknown lines do not close a group', () => {
  const rules = rulesOf('User-agent: foo\nSitemap: https://e.org/s.xml\nNoindex: /y\nUser-agent: anwc\nDisallow: /x\n');
  assert.equal(allowed(rules, 'https://e.org/x'), false);
  assert.equal(allowed(rules, 'https://e.org/x', 'foo'), false);
  assert.equal(allowed(rules, 'https://e.org/y'), true);
  assert.deepEqual(robotsSitemaps(rules), ['https://e.org/s.xml']);
});

test('Crawl-delay is read per group, with * as fallback, and nonsense ignored', () => {
  const rules = rulesOf(
    'User-agent: *\nCrawl-delay: 10\n\nUser-agent: anwc\nCrawl-delay: 2.5\nDisallow: /x\n\nUser-agent: slowbot\nCrawl-delay: soon\nCrawl-delay:\n',
  );
  assert.equal(crawlDelay(rules, 'anwc/0.1'), 2.5);
  assert.equal(crawlDelay(rules, 'otherbot'), 10);
  assert.equal(crawlDelay(rules, 'slowbot'), undefined, 'its own group has no valid delay');
  assert.equal(crawlDelay(rulesOf('User-agent: *\nDisallow: /\n'), 'anwc'), undefined);
  assert.equal(crawlDelay(robotsFromFetch({ status: 404 }, T0), 'anwc'), undefined);
});

test('longest match wins, allow wins ties, with * and $', () => {
  const rules = rulesOf(
    'User-agent: anwc\nDisallow: /shop\nAllow: /shop/open\nDisallow: /*.pdf$\nAllow: /*.pdf$\nDisallow: /tmp/*/cache\n',
  );
  assert.equal(allowed(rules, 'https://e.org/shop/cart'), false);
  assert.equal(allowed(rules, 'https://e.org/shop/open/day'), true);
  assert.equal(allowed(rules, 'https://e.org/paper.pdf'), true);
  assert.equal(allowed(rules, 'https://e.org/tmp/a/b/cache/c'), false);
  assert.equal(allowed(rules, 'https://e.org/tmp/cache'), true);
});

test('an empty Disallow or Allow matches nothing (RFC 9309 §2.2.2): it neither blocks nor overrides', () => {
  const open = rulesOf('User-agent: *\nDisallow:\n');
  assert.equal(allowed(open, 'https://e.org/'), true);
  assert.equal(allowed(open, 'https://e.org/any/page.html'), true);
  assert.equal(matchRobots(open, 'https://e.org/any', 'anwc').rule, undefined, 'no rule decided it');
  const closed = rulesOf('User-agent: *\nAllow:\nDisallow: /\n');
  assert.equal(allowed(closed, 'https://e.org/page'), false, 'an empty Allow does not beat Disallow: /');
});

test('the deciding rule does not hang on the order of the lines: longest first or last, allow before or after its tie', () => {
  const lines = ['Disallow: /shop/cart', 'Allow: /shop', 'Allow: /p', 'Disallow: /p', 'Disallow: /*.pdf', 'Allow: /docs/*.pdf'];
  for (const order of [lines, [...lines].reverse()]) {
    const rules = rulesOf(`User-agent: anwc\n${order.join('\n')}\n`);
    const at = order === lines ? 'as written' : 'reversed';
    assert.equal(allowed(rules, 'https://e.org/shop/cart/1'), false, `the longer disallow wins, ${at}`);
    assert.equal(allowed(rules, 'https://e.org/shop/open'), true, `only the allow matches, ${at}`);
    assert.equal(allowed(rules, 'https://e.org/page'), true, `allow wins a tie of equal length, ${at}`);
    assert.equal(allowed(rules, 'https://e.org/docs/a.pdf'), true, `the longer allow wins, ${at}`);
    assert.equal(allowed(rules, 'https://e.org/a.pdf'), false, at);
  }
});

test('groups for other crawlers only, and no * group: nothing applies to us', () => {
  const rules = rulesOf('User-agent: googlebot\nDisallow: /\n\nUser-agent: bingbot\nDisallow: /private\n');
  assert.equal(allowed(rules, 'https://e.org/'), true);
  assert.equal(allowed(rules, 'https://e.org/private/x'), true);
});

test('the deciding rule comes with its line, directive and pattern as written', () => {
  const rules = rulesOf('# site rules\nUser-agent: *\nDisallow: /private   # keep out\nAllow: /private/ツ\n');
  assert.deepEqual(checkRobots(rules, 'https://e.org/private/x', 'anwc'), {
    allowed: false,
    rule: { line: 3, directive: 'disallow', pattern: '/private' },
    reason: 'disallow: /private at line 3',
  });
  assert.deepEqual(checkRobots(rules, 'https://e.org/private/%E3%83%84', 'anwc').rule, {
    line: 4,
    directive: 'allow',
    pattern: '/private/ツ',
  });
  assert.deepEqual(checkRobots(rules, 'https://e.org/public', 'anwc'), { allowed: true, reason: 'no rule matched' });
});

test('%-encoded unreserved characters are decoded and escapes compared case-blind', () => {
  const rules = rulesOf('User-agent: *\nDisallow: /%7Ejoe/\nDisallow: /caf%c3%a9\nDisallow: /a%2fb\nDisallow: /%62%61%7A\n');
  assert.equal(allowed(rules, 'https://e.org/~joe/index.html'), false);
  assert.equal(allowed(rules, 'https://e.org/%7ejoe/index.html'), false);
  assert.equal(allowed(rules, 'https://e.org/café'), false, 'the URL is encoded the way the fetcher sends it');
  assert.equal(allowed(rules, 'https://e.org/caf%C3%A9'), false);
  assert.equal(allowed(rules, 'https://e.org/a%2Fb'), false);
  assert.equal(allowed(rules, 'https://e.org/a/b'), true, 'an encoded "/" is reserved, not decoded');
  assert.equal(allowed(rules, 'https://e.org/baz'), false, 'RFC 9309 §2.2.2 table');
});

test('a UTF-8 BOM is skipped at the start only, whole or partial', () => {
  const text = 'User-agent: *\nDisallow: /x\n';
  for (const bom of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
    const rules = rulesOf(Buffer.concat([Buffer.from(bom), Buffer.from(text)]));
    assert.equal(allowed(rules, 'https://e.org/x'), false, bom.join(' '));
  }
  assert.equal(allowed(rulesOf('\ufeffUser-agent: *\nDisallow: /x\n'), 'https://e.org/x'), false);
  assert.equal(allowed(rulesOf('User-agent: *\n\ufeffDisallow: /x\n'), 'https://e.org/x'), true);
});

test('rules survive a JSON round trip (the store keeps them as JSON)', () => {
  const rules = rulesOf('User-agent: *\nDisallow: /x\nCrawl-delay: 4\n');
  const back: RobotsRules = JSON.parse(JSON.stringify(rules));
  assert.deepEqual(back, rules);
  assert.deepEqual(checkRobots(back, 'https://e.org/x/1', 'anwc'), checkRobots(rules, 'https://e.org/x/1', 'anwc'));
  assert.equal(crawlDelay(back, 'anwc'), 4);
});

test('an empty or missing body allows everything; a non-URL is refused', () => {
  assert.equal(allowed(robotsFromFetch({ status: 200 }, T0), 'https://e.org/x'), true);
  assert.equal(allowed(robotsFromFetch({ status: 204, body: '' }, T0), 'https://e.org/x'), true);
  assert.deepEqual(checkRobots(rulesOf(''), 'http://[::1', 'anwc'), { allowed: false, reason: 'not a URL' });
});

test('the status edges: 2xx is the file, 300 to 499 but 429 allow all, 5xx disallows', () => {
  const kind = (status: number) => robotsFromFetch({ status, body: 'User-agent: *\nDisallow: /x\n' }, T0).kind;
  assert.deepEqual([200, 299, 300, 399, 400, 428, 429, 430, 499, 500, 599].map(kind), [
    'full', 'full', 'allow-all', 'allow-all', 'allow-all', 'allow-all', 'disallow-all', 'allow-all', 'allow-all', 'disallow-all', 'disallow-all',
  ]);
});

test('a body of exactly the cap is read whole; one past it with no line end keeps nothing', () => {
  const head = 'User-agent: *\nDisallow: /x\n';
  const exact = `${head}#${'c'.repeat(ROBOTS_MAX_BYTES - head.length - 2)}\n`;
  assert.equal(Buffer.byteLength(exact), ROBOTS_MAX_BYTES);
  assert.deepEqual([rulesOf(exact).truncated, rulesOf(exact).text === exact], [false, true]);
  const endless = `Disallow: /${'y'.repeat(ROBOTS_MAX_BYTES)}`;
  assert.deepEqual([rulesOf(endless).truncated, rulesOf(endless).text], [true, '']);
  const crlf = `${head}${'#'.repeat(ROBOTS_MAX_BYTES)}`.replace('/x\n', '/x\r');
  assert.equal(rulesOf(crlf).text, 'User-agent: *\nDisallow: /x\r', 'a CR ends a line too');
});

test('groups of one agent merged: the largest Crawl-delay', () => {
  const rules = rulesOf('User-agent: anwc\nCrawl-delay: 2\n\nUser-agent: other\nDisallow: /\n\nUser-agent: anwc\nCrawl-delay: 5\n');
  assert.equal(crawlDelay(rules, 'anwc'), 5);
});

test('rules read back from the store are used only when every field has its type', () => {
  const kinds = [rulesOf('User-agent: *\nDisallow: /x\n'), robotsFromFetch({ status: 404 }, T0), robotsFromFetch({ status: 503 }, T0)];
  for (const rules of kinds) assert.equal(isRobotsRules(JSON.parse(JSON.stringify(rules))), true, rules.kind);
  const good = JSON.parse(JSON.stringify(kinds[2])) as Record<string, unknown>;
  for (const x of [null, 'rules', 7, undefined]) assert.equal(isRobotsRules(x), false, String(x));
  const spoilt: Record<string, unknown>[] = [
    { kind: 'some' }, { text: null }, { truncated: 'no' }, { cause: 3 }, { fetchedAt: '1' }, { expiresAt: null }, { failures: '1' }, { retryAfter: '5' }, { status: '429' },
  ];
  for (const change of spoilt) assert.equal(isRobotsRules({ ...good, ...change }), false, JSON.stringify(change));
  for (const k of ['kind', 'text', 'truncated', 'cause', 'fetchedAt', 'expiresAt', 'failures']) {
    const { [k]: _, ...rest } = good;
    assert.equal(isRobotsRules(rest), false, `without ${k}`);
  }
  const { retryAfter: _, ...noWait } = good;
  assert.equal(isRobotsRules(noWait), true, 'retryAfter may be absent');
  const { status: __, ...noStatus } = good;
  assert.equal(isRobotsRules(noStatus), true, 'status may be absent (a network error, or rules stored by an older version)');
});
