import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalPath, urlPathForRobots } from '../../src/web/robots-encoding.js';
import { patternMatches } from '../../src/web/robots-match.js';
import { parseRobots } from '../../src/web/robots-parse.js';

test('canonicalPath decodes unreserved escapes, upper-cases the rest, encodes the unsafe', () => {
  assert.equal(canonicalPath('/%7euser/%41%2d%5f%2E'), '/~user/A-_.');
  assert.equal(canonicalPath('/a%2fb%3F%c3%a9'), '/a%2Fb%3F%C3%A9');
  assert.equal(canonicalPath('/ツ'), '/%E3%83%84');
  assert.equal(canonicalPath('/a b[1]|^"'), '/a%20b%5B1%5D%7C%5E%22');
  assert.equal(canonicalPath('/100%/%zz'), '/100%25/%25zz');
  assert.equal(canonicalPath('/*.php$'), '/*.php$');
  assert.equal(canonicalPath("/it's?q='x'"), "/it's?q=%27x%27");
});

test('canonicalPath is idempotent and yields ASCII only', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      const once = canonicalPath(s);
      assert.equal(canonicalPath(once), once);
      assert.match(once, /^[\x21-\x7e]*$/);
    }),
  );
});

test('urlPathForRobots gives the path+query the fetcher requests', () => {
  assert.equal(urlPathForRobots('http://www.example.com'), '/');
  assert.equal(urlPathForRobots('http://e.org/a;b?c=d#frag'), '/a;b?c=d');
  assert.equal(urlPathForRobots('http://e.org/a/./b/../c'), '/a/c');
  assert.equal(urlPathForRobots('http://e.org/q?url=http://x.org/?a&b'), '/q?url=http://x.org/?a&b');
  assert.equal(urlPathForRobots('http://e.org/%7Efoo/caf\u00e9'), '/~foo/caf%C3%A9');
  assert.equal(urlPathForRobots("http://e.org/?q='x'"), canonicalPath("/?q='x'"), 'rule and URL agree on quotes');
  assert.equal(urlPathForRobots(''), '/');
  assert.equal(urlPathForRobots('http://[::1'), undefined);
});

test('patternMatches: prefix, * anywhere, $ only at the end', () => {
  const cases: [string, string, boolean][] = [
    ['/fish', '/fish.html', true],
    ['/fish', '/Fish', false],
    ['/fish*', '/fishheads', true],
    ['/*.php', '/index.php?x', true],
    ['/*.php$', '/index.php?x', false],
    ['/*.php$', '/a/b.php', true],
    ['/fish*.php', '/fishheads/catfish.php?p', true],
    ['/foo/*/qux', '/foo//qux', true],
    ['/a$b', '/a$b/c', true],
    ['/$', '/', true],
    ['/$', '/x', false],
    ['*', '', true],
    ['/a*b*c*d$', '/aXbYYcZZZd', true],
    ['/a*b*c*d$', '/aXbYYcZZZdE', false],
    // The anchored tail comes after what the pieces before it took: it may not reuse their octets.
    ['/ab*b$', '/ab', false],
    ['/ab*b$', '/abb', true],
    ['/a*ab$', '/ab', false],
    ['/a*x*xy$', '/axy', false],
  ];
  for (const [pattern, path, expected] of cases) {
    assert.equal(patternMatches(pattern, path), expected, `${pattern} on ${path}`);
  }
});

test('patternMatches on a hostile many-star pattern', () => {
  const hostile = `/${'*a'.repeat(5000)}$`;
  assert.equal(patternMatches(hostile, `/${'a'.repeat(2000)}`), false, 'not enough a');
  assert.equal(patternMatches(hostile, `/${'a'.repeat(6000)}b`), false, 'the $ anchor');
  assert.equal(patternMatches(hostile, `/${'ab'.repeat(5000)}a`), true);
});

test('patternMatches agrees with a regular expression on random patterns', () => {
  const toRegex = (p: string) => {
    const anchored = p.endsWith('$');
    const body = (anchored ? p.slice(0, -1) : p)
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${body}${anchored ? '$' : ''}`, 's');
  };
  const piece = fc.constantFrom('a', 'b', '/', '*', '$', '.');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), fc.array(fc.constantFrom('a', 'b', '/', '$', '.'), { maxLength: 12 }), (p, s) => {
      const pattern = p.join('');
      const path = s.join('');
      assert.equal(patternMatches(pattern, path), toRegex(pattern).test(path), `${pattern} on ${path}`);
    }),
  );
});

test('parseRobots: line endings, comments, missing colon, typos, long lines, rules outside groups', () => {
  const long = `/${'a'.repeat(20_000)}`;
  const text = [
    'Disallow: /orphan', // 1: before any group, belongs to nobody
    'user-agent FooBot', // 2: missing colon, two words
    'dissallow: /typo # a comment', // 3
    'disallow /two words', // 4: three words without a colon: not a line
    `Disallow: ${long}`, // 5
    'Sitemap: https://e.org/s.xml', // 6
  ].join('\r\n');
  const parsed = parseRobots(text);
  assert.equal(parsed.groups.length, 1);
  const [group] = parsed.groups;
  assert.deepEqual(group!.agents, ['foobot']);
  assert.deepEqual(
    group!.rules.map((r) => [r.line, r.directive, r.pattern.length > 100 ? 'long' : r.pattern]),
    [
      [3, 'disallow', '/typo'],
      [5, 'disallow', 'long'],
    ],
  );
  assert.ok(group!.rules[1]!.match.length < long.length, 'an over-long line is cut, its prefix kept');
  assert.deepEqual(parsed.sitemaps, ['https://e.org/s.xml']);
  assert.deepEqual(parseRobots('User-agent: a\rDisallow: /x\rUser-agent: b\r\rDisallow: /y').groups.map((g) => g.agents), [['a'], ['b']]);
});
