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

test('a name is looked up and cached in lower case; a mapping matches it in any case', async () => {
  const asked: string[] = [];
  const p = new AddressPolicy({ lookup: async (host) => (asked.push(host), [{ address: '8.8.8.8', family: 4 }]), resolve: ['*.test:127.0.0.1'] });
  await p.check('News.Example');
  await p.check('news.example');
  assert.deepEqual(asked, ['news.example']);
  assert.deepEqual(await p.check('Sherlock.TEST'), { ok: true, address: '127.0.0.1', family: 4, via: 'mapping' });
  const parsed = new AddressPolicy({ resolve: parseResolveMappings(['a.test:127.0.0.9']), lookup: noDns });
  assert.deepEqual(await parsed.check('a.test'), { ok: true, address: '127.0.0.9', family: 4, via: 'mapping' }, 'mappings given already parsed');
});

test('answers are cached for cacheMs from when they were asked: reused a millisecond before it ends, asked again when it ends', async () => {
  let calls = 0;
  let t = 5000;
  const p = new AddressPolicy({ lookup: async () => (calls++, [{ address: '8.8.8.8', family: 4 }]), cacheMs: 1000, now: () => t });
  await p.check('a.example');
  t = 5999;
  await p.check('a.example');
  assert.equal(calls, 1);
  t = 6000;
  await p.check('a.example');
  assert.equal(calls, 2);
});

test('why a name has no address: the resolver\'s code, no answer, or each refused answer', async () => {
  const failing = (err: unknown) => new AddressPolicy({ lookup: async () => { throw err; } });
  assert.deepEqual(await failing(Object.assign(new Error('x'), { code: 'ENOTFOUND' })).check('gone.example'), { ok: false, failure: 'dns', detail: 'gone.example: ENOTFOUND' });
  assert.deepEqual(await failing(new Error('x')).check('gone.example'), { ok: false, failure: 'dns', detail: 'gone.example: lookup failed' });
  assert.deepEqual(await new AddressPolicy({ lookup: answers() }).check('empty.example'), { ok: false, failure: 'dns', detail: 'empty.example: no address' });
  assert.deepEqual(await new AddressPolicy({ lookup: answers('10.0.0.5', '::1') }).check('intranet.example'),
    { ok: false, failure: 'refused-address', detail: 'intranet.example → 10.0.0.5 is private, ::1 is loopback' });
  assert.deepEqual(await new AddressPolicy({ lookup: answers('::1', '2001:4860:4860::8888') }).check('v6.example'),
    { ok: true, address: '2001:4860:4860::8888', family: 6, via: 'dns' });
});

test('a mapping as people write it: spaces, case, a trailing dot, IPv6 with or without brackets', () => {
  assert.deepEqual(parseResolveMappings([' Alpha.TEST. : 127.0.0.9 ', '*.V6.test:[::1]', 'bare.test:::2', 'x-1.test:10.0.0.1']), [
    { pattern: 'alpha.test', address: '127.0.0.9' },
    { pattern: '*.v6.test', address: '::1' },
    { pattern: 'bare.test', address: '::2' },
    { pattern: 'x-1.test', address: '10.0.0.1' },
  ]);
  const m = parseResolveMappings(['alpha.test:127.0.0.9', '*.sub.test:127.0.0.2']);
  assert.equal(mappedAddress(m, 'alpha.test.'), '127.0.0.9', 'a host with its trailing dot');
  assert.equal(mappedAddress(m, 'a.sub.test.'), '127.0.0.2');
  assert.equal(mappedAddress(m, 'xsub.test'), undefined, 'a wildcard matches whole labels');
});

test('a mapping with no name, a wildcard alone, a name with other characters or a bracket left open is refused, with the fix', () => {
  for (const bad of ['*.:127.0.0.1', '*:127.0.0.1', 'a_b.test:127.0.0.1', 'a b.test:127.0.0.1', 'é.test:127.0.0.1', 'alpha.test:[::1', '.:127.0.0.1']) {
    assert.throws(() => parseResolveMappings([bad]), (e: unknown) =>
      e instanceof UserError && e.message === '--resolve needs HOST:ADDR' && e.value === bad && /alpha\.test:127\.0\.0\.1/.test(e.fix ?? ''), bad);
  }
});
