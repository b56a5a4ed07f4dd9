import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ACTION_NAMES } from '../../src/walk/activity/actions-spec.js';
import { CIRCUMSTANCES } from '../../src/walk/activity/spec.js';
import { CONSTRAINT_NAMES } from '../../src/walk/activity/vocabulary.js';
import { STRATEGIES } from '../../src/walk/strategies/strategy.js';

/**
 * The published schema is checked against the parser's own vocabularies (so the two cannot drift)
 * and the JSON samples against the schema's shape. The parser itself checks every file fully.
 */
const dir = resolve(process.cwd(), 'activities');
type Schema = {
  $schema: string;
  required: string[];
  properties: { [k: string]: { enum?: string[] } };
  $defs: { [k: string]: { prefixItems?: { enum: string[] }[] } };
};
const schema = JSON.parse(readFileSync(resolve(dir, 'activity.schema.json'), 'utf8')) as Schema;
const sorted = (xs: readonly string[]) => [...xs].sort();

test('the schema names exactly the constraints, actions and strategies the parser knows', () => {
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.deepEqual(sorted(schema.$defs.constraint!.prefixItems![0]!.enum), sorted([...CONSTRAINT_NAMES, ...CIRCUMSTANCES]));
  assert.deepEqual(sorted(schema.$defs.action!.prefixItems![0]!.enum), sorted(ACTION_NAMES));
  assert.deepEqual(sorted(schema.properties.strategy!.enum!), sorted(STRATEGIES));
});

test('every JSON sample has the schema\'s keys, and names only listed constraints and actions', () => {
  const samples = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'activity.schema.json');
  assert.ok(samples.length > 0);
  const constraintNames = new Set(schema.$defs.constraint!.prefixItems![0]!.enum);
  const actionNames = new Set(schema.$defs.action!.prefixItems![0]!.enum);
  for (const f of samples) {
    const a = JSON.parse(readFileSync(resolve(dir, f), 'utf8')) as { [k: string]: unknown };
    for (const k of schema.required) assert.ok(k in a, `${f}: ${k}`);
    for (const k of Object.keys(a)) assert.ok(k in schema.properties, `${f}: ${k} is not in the schema`);
    for (const c of a.constraints as [string][]) assert.ok(constraintNames.has(c[0]), `${f}: ${c[0]}`);
    for (const x of a.actions as [string][]) assert.ok(actionNames.has(x[0]), `${f}: ${x[0]}`);
  }
});
