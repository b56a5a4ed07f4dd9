import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseDbUrl, redact } from '../../src/store/url.js';
import { anwcSync } from '../support/cli.js';

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
