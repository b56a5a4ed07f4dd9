import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AddressPolicy } from '../../src/web/address.js';
import { mappedAddress, parseResolveMappings } from '../../src/web/resolve-mappings.js';
import { UserError } from '../../src/errors.js';
import { noDns } from '../support/testweb.js';

const answers = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

test('mappings: exact names win over wildcards, wildcards match subdomains only', () => {
  const m = parseResolveMappings(['*.test:127.0.0.1', 'alpha.test:127.0.0.9', 'v6.example:[::1]']);
  assert.equal(mappedAddress(m, 'alpha.test'), '127.0.0.9');
  assert.equal(mappedAddress(m, 'Beta.Test'), '127.0.0.1');
  assert.equal(mappedAddress(m, 'deep.sub.test'), '127.0.0.1');
  assert.equal(mappedAddress(m, 'test'), undefined);
  assert.equal(mappedAddress(m, 'nottest'), undefined);
  assert.equal(mappedAddress(m, 'v6.example'), '::1');
});

test('a malformed mapping is a user error naming the value and the fix', () => {
  for (const bad of ['alpha.test', 'alpha.test:localhost', ':127.0.0.1', 'alpha.test:127.0.0.1:8080']) {
    assert.throws(() => parseResolveMappings([bad]), (e: unknown) => e instanceof UserError && e.value === bad && !!e.fix);
  }
});

test('mapped names are trusted even on loopback; DNS is not asked', async () => {
  const p = new AddressPolicy({ resolve: ['*.test:127.0.0.1'], lookup: noDns });
  assert.deepEqual(await p.check('sherlock.test'), { ok: true, address: '127.0.0.1', family: 4, via: 'mapping' });
});

test('names neither mapped nor resolvable fail as dns', async () => {
  const p = new AddressPolicy({ lookup: noDns });
  const v = await p.check('nowhere.example');
  assert.equal(v.ok ? 'ok' : v.failure, 'dns');
});

test('private answers are refused unless allowPrivate; a public answer among them is used', async () => {
  const refused = await new AddressPolicy({ lookup: answers('10.0.0.5', '::1') }).check('intranet.example');
  assert.equal(refused.ok ? 'ok' : refused.failure, 'refused-address');
  assert.match(refused.ok ? '' : refused.detail, /10\.0\.0\.5 is private.*::1 is loopback/);
  const mixed = await new AddressPolicy({ lookup: answers('127.0.0.1', '8.8.4.4') }).check('mixed.example');
  assert.deepEqual(mixed, { ok: true, address: '8.8.4.4', family: 4, via: 'dns' });
  const allowed = await new AddressPolicy({ lookup: answers('10.0.0.5'), allowPrivate: true }).check('intranet.example');
  assert.equal(allowed.ok && allowed.address, '10.0.0.5');
});

test('allowPrivate still refuses addresses that are no host (unspecified, multicast)', async () => {
  const p = new AddressPolicy({ allowPrivate: true, lookup: noDns });
  for (const ip of ['0.0.0.0', '224.0.0.1', '::', '::ffff:0.0.0.0']) {
    const v = await p.check(ip);
    assert.equal(v.ok ? 'ok' : v.failure, 'refused-address', ip);
  }
  assert.equal((await p.check('127.0.0.1')).ok, true);
});

test('IP literals are checked without a lookup', async () => {
  const p = new AddressPolicy({ lookup: noDns });
  const v = await p.check('127.0.0.2');
  assert.equal(v.ok ? 'ok' : v.failure, 'refused-address');
  const v6 = await p.check('[::1]');
  assert.equal(v6.ok ? 'ok' : v6.failure, 'refused-address');
  assert.equal((await p.check('8.8.8.8')).ok, true);
});

test('answers are cached for cacheMs and asked again after it', async () => {
  let calls = 0;
  let t = 0;
  const p = new AddressPolicy({ lookup: async () => (calls++, [{ address: '8.8.8.8', family: 4 }]), cacheMs: 1000, now: () => t });
  await p.check('a.example');
  await p.check('A.example');
  assert.equal(calls, 1);
  t = 1500;
  await p.check('a.example');
  assert.equal(calls, 2);
});
