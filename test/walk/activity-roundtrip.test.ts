import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ConstraintSet, type Candidate } from '../../src/walk/constraints/constraint.js';
import { compileConstraints } from '../../src/walk/activity/compile.js';
import { parseJsonActivity, parseSexprActivity } from '../../src/walk/activity/parse.js';
import { serializeSexpr, toJson } from '../../src/walk/activity/print.js';
import type { ActionSpec, Activity, ConstraintSpec, Value } from '../../src/walk/activity/spec.js';

/** The model without source positions, which a reprint moves. */
const bare = (a: Activity) => JSON.parse(JSON.stringify(a, (k, v) => (k === 'at' || k === 'file' ? undefined : v))) as unknown;

const num = (value: number): Value => ({ kind: 'number', value });
const str = (value: string): Value => ({ kind: 'string', value });
const sym = (value: string): Value => ({ kind: 'symbol', value });
const list = (items: Value[]): Value => ({ kind: 'list', items });
const leaf = (name: string, ...args: Value[]): ConstraintSpec => ({ kind: 'leaf', name, args });

const text = fc.string({ maxLength: 12 });
const word = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== '');
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);

/** Valid leaves with arbitrary strings, numbers, symbols and lists in their arguments. */
const leafArb: fc.Arbitrary<ConstraintSpec> = fc.oneof(
  fc.nat({ max: 50 }).map((n) => leaf('depth', num(n))),
  fc.constant(leaf('no-cycles')),
  word.map((s) => leaf('uri-search', str(s))),
  fc.array(word, { minLength: 1, maxLength: 3 }).map((ds) => leaf('uri-subsumed-by-directory-path', list(ds.map(str)))),
  fc.tuple(fc.constantFrom('<', '>=', '/='), fc.nat()).map(([op, t]) => leaf('header-last-modified', sym(op), num(t))),
  fc.tuple(fc.nat(), fc.boolean()).map(([n, d]) => leaf('header-content-length-upto', num(n), sym(d ? 't' : 'nil'))),
  fc.constantFrom('text', 'image').map((t) => leaf('header-content-type', list([sym(`:${t}`), sym(':html')]))),
  fc.array(fc.integer({ min: 1, max: 65535 }), { minLength: 1, maxLength: 3 }).map((ps) => leaf('uri-port', list(ps.map(num)))),
  fc.subarray([':http', ':https', ':ftp'], { minLength: 1 }).map((xs) => leaf('uri-scheme', list(xs.map(sym)))),
  fc.constantFrom(':http-path', ':http-object', ':https-url').map((k) => leaf('uri-class', sym(k))),
);

/** Candidates with every fact filled, to compare what two compiled sets decide. */
const headers = (type: string) => ({ 'content-type': type, 'last-modified': 'Mon, 01 Jan 1996 05:00:00 GMT', 'content-length': '300' });
const probes: Candidate[] = [
  { url: new URL('http://a.test/docs/x.html'), depth: 1, path: ['http://a.test/'], headers: headers('text/html'), robotsAllowed: true },
  { url: new URL('https://b.test:8443/docs/a/'), depth: 9, path: ['https://b.test:8443/docs/a/'], headers: headers('image/png'), robotsAllowed: true },
  { url: new URL('ftp://c.test/pub/'), depth: 0, path: [], headers: {}, robotsAllowed: false },
];
const decisions = (x: Activity) => {
  const set = new ConstraintSet(compileConstraints(x.constraints));
  return probes.map((c) => set.check(c).pass);
};

const constraintArb: fc.Arbitrary<ConstraintSpec> = fc.letrec<{ c: ConstraintSpec; set: ConstraintSpec[] }>((tie) => ({
  c: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.array(tie('c'), { maxLength: 3 }).map((cs): ConstraintSpec => ({ kind: 'circumstance', name: 'or', operands: cs })),
    tie('c').map((c): ConstraintSpec => ({ kind: 'circumstance', name: 'not', operands: [c] })),
    fc.tuple(tie('set'), tie('set'), tie('set')).map(([a, b, c]): ConstraintSpec => ({
      kind: 'circumstance',
      name: 'if',
      operands: [{ kind: 'set', members: a.length ? a : [leaf('no-cycles')] }, { kind: 'set', members: b.length ? b : [leaf('no-cycles')] }, { kind: 'set', members: c }],
    })),
  ),
  set: fc.array(tie('c'), { maxLength: 2 }),
})).c;

const actionArb: fc.Arbitrary<ActionSpec> = fc.oneof(
  fc.constantFrom('trace', 'trace-headers', 'walk-inferiors').map((n): ActionSpec => ({ name: n, args: [] })),
  fc.array(fc.tuple(word, fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 3 }).map(
    (ws): ActionSpec => ({ name: 'walk-salton-sorted-inferiors', args: [list(ws.map(([w]) => str(w))), list(ws.map(([, x]) => num(x)))] }),
  ),
  fc.constantFrom('itemize', 'menu').map((s): ActionSpec => ({ name: 'html-with-enumeration', args: [sym('*standard-output*'), sym(`:${s}`)], inner: [{ name: 'html-trace', args: [] }] })),
);

const activityArb: fc.Arbitrary<Activity> = fc.record(
  {
    name,
    documentation: text,
    strategy: fc.constantFrom('roulette', 'bfs', 'dfs'),
    operator: text,
    reportStream: fc.constant('*standard-output*'),
    constraints: fc.array(constraintArb, { maxLength: 4 }),
    actions: fc.array(actionArb, { maxLength: 3 }),
  },
  { requiredKeys: ['name', 'constraints', 'actions'] },
);

test('the s-expression form round-trips: parse(serializeSexpr(a)) is a', () => {
  fc.assert(
    fc.property(activityArb, (a) => {
      assert.deepEqual(bare(parseSexprActivity(serializeSexpr(a))), bare(a));
    }),
    { numRuns: 300 },
  );
});

test('the JSON form round-trips on what JSON can say, and keeps the meaning of the s-expression form', () => {
  fc.assert(
    fc.property(activityArb, (a) => {
      const j = parseJsonActivity(toJson(a));
      assert.deepEqual(bare(parseJsonActivity(toJson(j))), bare(j));
      const order = (x: Activity) => new ConstraintSet(compileConstraints(x.constraints)).ordered.map((c) => c.cost);
      assert.deepEqual(order(j), order(a));
      assert.deepEqual(decisions(j), decisions(a));
      assert.deepEqual(j.actions.map((x) => x.name), a.actions.map((x) => x.name));
    }),
    { numRuns: 300 },
  );
});
