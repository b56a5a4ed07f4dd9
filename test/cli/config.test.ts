import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const cli = resolve(process.cwd(), 'dist/src/cli/main.js');

function show(args: string[], env: Record<string, string> = {}): Record<string, { value: unknown; source: string }> {
  const r = spawnSync(process.execPath, [cli, 'config', 'show', '--json', ...args], { encoding: 'utf8', env: { ...process.env, ANWC_DB: '', ...env } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, { value: unknown; source: string }>;
}

test('config show says where each value came from: flag over environment over default', () => {
  const plain = show([]);
  assert.deepEqual(plain.db, { value: 'sqlite:./anwc.sqlite', source: 'default' });
  assert.deepEqual(plain['max-pages'], { value: null, source: 'unset' });
  const env = show([], { ANWC_DB: 'sqlite:/tmp/x.sqlite' });
  assert.deepEqual(env.db, { value: 'sqlite:/tmp/x.sqlite', source: 'env ANWC_DB' });
  const flag = show(['--db', 'sqlite:/tmp/y.sqlite', '--delay', '1'], { ANWC_DB: 'sqlite:/tmp/x.sqlite' });
  assert.deepEqual(flag.db, { value: 'sqlite:/tmp/y.sqlite', source: 'flag' });
  assert.deepEqual(flag.delay, { value: 1, source: 'flag' }, 'given the default is still "flag"');
});

test('config show hides a database password', () => {
  const out = show([], { ANWC_DB: 'mysql://anwc:s3cret@db.example:3306/anwc' });
  assert.equal(out.db!.value, 'mysql://anwc:***@db.example:3306/anwc');
});
