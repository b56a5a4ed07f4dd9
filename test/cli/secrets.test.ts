import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseDbUrl, redact } from '../../src/store/url.js';
import { anwc as run, anwcSync } from '../support/cli.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * A MySQL password never reaches the screen, in every form a user may write the address: each
 * command that can print the address (config show, a connection error, the demo, a bad address)
 * is run with it, by flag and by environment, and nothing it prints holds the password.
 */

/** Port 1 on loopback: nothing listens, so every command fails to connect, after parsing the address. */
const FORMS: { name: string; url: string; password: string; user: string }[] = [
  { name: 'plain', url: 'mysql://ane:s3cretpw@127.0.0.1:1/anwc', password: 's3cretpw', user: 'ane' },
  { name: 'empty user', url: 'mysql://:s3cretpw@127.0.0.1:1/anwc', password: 's3cretpw', user: 'root' },
  { name: 'percent-encoded @ / :', url: 'mysql://ane:s3%40cr%2Fet%3Apw@127.0.0.1:1/anwc', password: 's3@cr/et:pw', user: 'ane' },
  { name: 'raw @ / :', url: 'mysql://ane:s3@cr/et:pw@127.0.0.1:1/anwc', password: 's3@cr/et:pw', user: 'ane' },
];

/** What must not show: the password, as written or percent-encoded, and its first five characters. */
const leaks = (pw: string) => [pw, encodeURIComponent(pw), pw.slice(0, 5)];

function anwc(args: string[], env: Record<string, string> = {}, cwd?: string): string {
  const r = anwcSync(args, { env, cwd });
  return `${r.stdout}\n${r.stderr}`;
}

/** A folder whose anwc.config.json gives the address: the password given by file. */
function configDir(parent: string, url: string): string {
  const d = join(parent, 'with-config');
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'anwc.config.json'), JSON.stringify({ db: url }));
  return d;
}

describe('the MySQL password is never printed', () => {
  for (const f of FORMS) {
    it(`${f.name}: parsed whole, and hidden by redact`, () => {
      const t = parseDbUrl(f.url);
      assert.equal(t.kind, 'mysql');
      if (t.kind !== 'mysql') return;
      assert.deepEqual([t.user, t.password, t.servers, t.database], [f.user, f.password, [{ host: '127.0.0.1', port: 1 }], 'anwc']);
      const shown = redact(f.url);
      assert.match(shown, /:\*\*\*@127\.0\.0\.1:1\/anwc$/);
      for (const l of leaks(f.password)) assert.ok(!shown.includes(l), `${shown} shows ${l}`);
    });

    it(`${f.name}: not in config show, stats, demo or a bad address, by flag, environment or configuration file`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'anwc-secret-'));
      try {
        const outputs = [
          anwc(['config', 'show', '--db', f.url]),
          anwc(['config', 'show', '--json'], { ANWC_DB: f.url }),
          anwc(['stats', '--db', f.url]),
          anwc(['stats'], { ANWC_DB: f.url }),
          anwc(['demo', '--db', f.url, '--port', '0', '--progress', 'none'], {}, dir),
          anwc(['stats', '--db', f.url.replace('/anwc', '/bad-name!')]),
          anwc(['harvest', '--db', f.url, '--delay', '0']),
          anwc(['config', 'show'], {}, configDir(dir, f.url)),
          anwc(['stats'], {}, configDir(dir, f.url)),
        ];
        for (const out of outputs) {
          for (const l of leaks(f.password)) assert.ok(!out.includes(l), `printed ${l}:\n${out}`);
        }
        assert.match(outputs[0]!, /:\*\*\*@127\.0\.0\.1:1\/anwc/, 'config show still says where the database is');
        assert.match(outputs[2]!, /127\.0\.0\.1:1/, 'a connection error names the server');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

/**
 * Every way an address may carry a secret, whether mysql2 or our parser takes it or refuses it:
 * what redact shows keeps where the database is and nothing of the secret.
 */
const REDACTIONS: { form: string; value: string; secret: string[]; kept: string }[] = [
  { form: 'user:pass@', value: 'mysql://ane:pw-one@db.example:3306/anwc', secret: ['pw-one'], kept: 'mysql://ane:***@db.example:3306/anwc' },
  { form: 'one slash', value: 'mysql:/ane:pw-one@db.example/anwc', secret: ['pw-one'], kept: 'mysql:/ane:***@db.example/anwc' },
  { form: 'no slash', value: 'mysql:ane:pw-one@db.example/anwc', secret: ['pw-one'], kept: 'mysql:ane:***@db.example/anwc' },
  { form: 'three slashes', value: 'mysql:///ane:pw-one@db.example/anwc', secret: ['pw-one'], kept: 'mysql:///ane:***@db.example/anwc' },
  { form: 'capital scheme', value: 'MySQL://ane:pw-one@db.example/anwc', secret: ['pw-one'], kept: 'MySQL://ane:***@db.example/anwc' },
  { form: 'no scheme', value: 'ane:pw-one@db.example/anwc', secret: ['pw-one'], kept: 'ane:***@db.example/anwc' },
  { form: 'a mistyped scheme', value: 'mysq://ane:pw-one@db.example/anwc', secret: ['pw-one'], kept: 'mysq://ane:***@db.example/anwc' },
  { form: 'a scheme of one slash, or a user name', value: 'mysq:/ane:pw-one@db.example/anwc', secret: ['pw-one', 'ane:pw'], kept: 'mysq:***@db.example/anwc' },
  { form: 'mariadb scheme', value: 'mariadb://ane:pw-one@db.example/anwc', secret: ['pw-one'], kept: 'mariadb://ane:***@db.example/anwc' },
  { form: '?password=', value: 'mysql://ane@db.example/anwc?password=pw-one', secret: ['pw-one'], kept: 'mysql://ane@db.example/anwc?password=***' },
  { form: '?pwd=', value: 'mysql://ane@db.example/anwc?pwd=pw-one', secret: ['pw-one'], kept: 'mysql://ane@db.example/anwc?pwd=***' },
  { form: 'mysql2\'s factors and hash', value: 'mysql://ane@db.example/anwc?socket=/run/m.sock&password1=pw-one&password2=pw-two&passwordSha1=pw-three', secret: ['pw-one', 'pw-two', 'pw-three'], kept: 'mysql://ane@db.example/anwc?socket=/run/m.sock&password1=***&password2=***&passwordSha1=***' },
  { form: 'percent-encoded option name', value: 'mysql://ane@db.example/anwc?pass%77ord=pw-one', secret: ['pw-one'], kept: 'mysql://ane@db.example/anwc?pass%77ord=***' },
  { form: '@ in an option', value: 'mysql://ane@db.example/anwc?password=pw@one', secret: ['pw@one', 'one'], kept: 'mysql://ane@db.example/anwc?password=***' },
  { form: 'both', value: 'mysql://ane:pw-one@db.example/anwc?password=pw-two', secret: ['pw-one', 'pw-two'], kept: 'mysql://ane:***@db.example/anwc?password=***' },
  { form: 'percent-encoded password', value: 'mysql://ane:pw%40one@db.example/anwc', secret: ['pw%40one', 'pw@one'], kept: 'mysql://ane:***@db.example/anwc' },
  { form: 'raw @ / : ? in the password', value: 'mysql://ane:pw@o/n:e?x@db1.example,db2.example:3307/anwc', secret: ['pw@o', 'n:e', '?x'], kept: 'mysql://ane:***@db1.example,db2.example:3307/anwc' },
  { form: 'an SMTP server', value: 'smtps:/mailer:pw-one@mail.example:465', secret: ['pw-one'], kept: 'smtps:/mailer:***@mail.example:465' },
  { form: 'a SQLite path, untouched', value: 'sqlite:/data/ane:pw@x.sqlite', secret: [], kept: 'sqlite:/data/ane:pw@x.sqlite' },
  { form: 'no secret', value: 'mysql://root@127.0.0.1:3306/anwc?socket=/run/mysqld/mysqld.sock', secret: [], kept: 'mysql://root@127.0.0.1:3306/anwc?socket=/run/mysqld/mysqld.sock' },
  { form: 'a sentence, not an address', value: 'Invalid login: 535 rejected for ane@db.example', secret: [], kept: 'Invalid login: 535 rejected for ane@db.example' },
];

describe('redact hides the secret of every form of address', () => {
  for (const r of REDACTIONS) {
    it(r.form, () => {
      const shown = redact(r.value);
      assert.equal(shown, r.kept);
      for (const secret of r.secret) assert.ok(!shown.includes(secret), `${shown} shows ${secret}`);
    });
  }

  it('whatever the password holds, raw in the userinfo or encoded in an option', () => {
    // The secret's own letters (Q, X, Z) appear nowhere else in the address.
    const password = fc.string({ unit: fc.constantFrom(...'QXZ@/:?&=#%! '), minLength: 1 }).filter((p) => /[QXZ]/.test(p));
    fc.assert(fc.property(password, fc.constantFrom('mysql://', 'mysql:/', 'mysql:', 'MySql:///', 'smtp://', 'mysq://', 'mysq:/', ''), (pw, scheme) => {
      // `ane://…@h` reads as a scheme and its user: the one form a password of no scheme cannot take.
      fc.pre(scheme !== '' || !pw.startsWith('//'));
      for (const value of [`${scheme}ane:${pw}@db.example/anwc`, `${scheme}ane@db.example/anwc?password=${encodeURIComponent(pw)}`]) {
        assert.doesNotMatch(redact(value), /[QXZ]/, value);
      }
    }));
  });
});

describe('a refused address never shows its secret', () => {
  for (const r of REDACTIONS.filter((x) => x.secret.length > 0 && !x.value.startsWith('smtp'))) {
    it(`${r.form}: in the error line and in config show, by flag and by environment`, () => {
      const outputs = [
        anwcSync(['stats', '--db', r.value]),
        anwcSync(['stats'], { env: { ANWC_DB: r.value } }),
        anwcSync(['config', 'show', '--db', r.value]),
        anwcSync(['config', 'show', '--json'], { env: { ANWC_DB: r.value } }),
      ];
      for (const out of outputs) {
        for (const secret of r.secret) assert.ok(!`${out.stdout}${out.stderr}`.includes(secret), `printed ${secret}:\n${out.stdout}${out.stderr}`);
      }
      assert.match(outputs[2]!.stdout, new RegExp(`--db +${JSON.stringify(r.kept).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 'config show still says where the database is');
    });
  }

  it('an SMTP server\'s and a webhook\'s password: not in config show, nor in a refused --webhook', () => {
    const shown = anwcSync(['config', 'show', '--smtp', 'smtp://mailer:pw-one@mail.example:25', '--webhook', 'https://hook:pw-two@hooks.example/x']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout, /pw-one|pw-two/);
    assert.match(shown.stdout, /--smtp +"smtp:\/\/mailer:\*\*\*@mail\.example:25"/);
    const refused = anwcSync(['maintain', '--site', 'http://a.test/', '--webhook', 'ftp://hook:pw-two@hooks.example/x']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--webhook is not valid \(got "ftp:\/\/hook:\*\*\*@hooks\.example\/x"\)/);
    assert.doesNotMatch(refused.stderr, /pw-two/);
  });
});

describe('a user name and password in a page\'s URL are neither sent on, printed nor stored', () => {
  let web: TestWeb;
  let dir: string;
  before(async () => {
    web = await startTestWeb();
    dir = mkdtempSync(join(tmpdir(), 'anwc-userinfo-'));
    const prose = '<p>The keeper of the lighthouse walked down to the rocks at dawn, and he counted the boats that had come in.</p>';
    web.page('home.test', '/', `<html><head><title>Home</title></head><body>${prose}<a href="http://other.test:${new URL(web.url('home.test')).port}/">other</a><a href="http://bob:link-pw@home.test:${new URL(web.url('home.test')).port}/b.html">b</a></body></html>`);
    web.page('home.test', '/b.html', `<html><body>${prose}</body></html>`);
    web.page('other.test', '/', `<html><body>${prose}</body></html>`);
  });
  after(async () => {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('map from a root with a password: the root is walked, the next host gets no password in Referer, no output holds one', async () => {
    const root = web.url('home.test', '/').replace('http://', 'http://alice:root-pw@');
    const out = join(dir, 'map');
    const r = await run(['map', root, '--depth', '1', '--out', `${out}.html`, '--out', `${out}.json`, ...web.resolve.flatMap((m) => ['--resolve', m]), '--hosts', 'home.test,other.test', '--delay', '0', '--progress', 'none']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(web.count('other.test', '/'), 1);
    assert.equal(web.lastHeaders('other.test', '/')!.referer, web.url('home.test', '/'));
    assert.equal(web.count('home.test', '/b.html'), 1, 'the link with a password is the page without it');
    const map = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { nodes: { url: string; state: string }[] };
    assert.equal(map.nodes.find((n) => n.url === web.url('home.test', '/'))?.state, 'walked');
    const written = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    for (const text of [r.stdout, r.stderr, written]) assert.doesNotMatch(text, /root-pw|link-pw|alice|bob/);
  });
});
