import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { anwc } from '../support/cli.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/** A task's notice mailed to a local SMTP server of the suite, its report posted to a local webhook; both failing, said in one line. */

interface Received {
  from: string;
  to: string[];
  data: string;
}

let web: TestWeb;
let smtp: SMTPServer;
let smtpPort: number;
const mails: Received[] = [];
let hook: Server;
let hookPort: number;
const posts: unknown[] = [];
/** Every request the webhook's server answered, as METHOD PATH. */
const hits: string[] = [];
let dir: string;

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-notice-'));
  web.page('note.test', '/docs/index.html', '<html><head><title>Docs</title></head><body><a href="/docs/missing.html">m</a> <a href="/docs/old">o</a></body></html>');
  web.page('note.test', '/docs/old', '', { status: 301, headers: { location: '/docs/index.html' } });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data });
        done();
      });
    },
  });
  await new Promise<void>((ok) => smtp.listen(0, '127.0.0.1', () => ok()));
  smtpPort = (smtp.server.address() as { port: number }).port;
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push(`${req.method} ${req.url}`);
      // A hook that moved, to an address on loopback that no --resolve mapping names.
      if (req.url === '/moved') return res.writeHead(302, { location: `http://127.0.0.1:${hookPort}/hook` }).end();
      if (req.method === 'POST' && body !== '') posts.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', ok));
  hookPort = (hook.address() as { port: number }).port;
});
after(async () => {
  await web.close();
  await new Promise<void>((ok) => smtp.close(() => ok()));
  await new Promise<void>((ok) => hook.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

const task = () => ['maintain', '--tree', web.url('note.test', '/docs/index.html'), '--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--max-retries', '0', '--hosts', 'note.test'];

describe('maintenance notices', () => {
  it('mails the broken and moved links to the task\'s address through the SMTP server, and posts the report to the webhook', async () => {
    const r = await anwc([...task(), '--email', 'owner@example.test', '--from', 'crawler@example.test', '--smtp', `smtp://127.0.0.1:${smtpPort}`, '--webhook', `http://hook.test:${hookPort}/hook`]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(mails.length, 1);
    const m = mails[0]!;
    assert.deepEqual([m.from, m.to], ['crawler@example.test', ['owner@example.test']]);
    assert.match(m.data, /^Subject: anwc maintain: note\.test:\d+: 1 broken, 1 moved/m);
    // The body travels quoted-printable: long lines are folded and = is escaped.
    const body = m.data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
    assert.ok(body.includes(`${web.url('note.test', '/docs/missing.html')}  (HTTP 404; linked from ${web.url('note.test', '/docs/index.html')})`), body);
    assert.ok(body.includes(`${web.url('note.test', '/docs/old')}  -> ${web.url('note.test', '/docs/index.html')}`), body);
    assert.equal(posts.length, 1);
    assert.equal((posts[0] as { interesting: { broken: unknown[] } }).interesting.broken.length, 1);
  });

  it('refuses a webhook on an address the crawl may not reach, in one line before any fetching', async () => {
    const seen = web.requests();
    const asked = hits.length;
    const r = await anwc([...task(), '--webhook', `http://127.0.0.1:${hookPort}/hook`]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, `anwc: --webhook http://127.0.0.1:${hookPort}/hook: 127.0.0.1 is loopback; give a webhook on a public address, map its name with --resolve HOST:ADDR, or allow private addresses with --allow-private\n`);
    assert.equal(web.requests(), seen, 'nothing fetched');
    assert.equal(hits.length, asked, 'nothing posted');
  });

  it('follows no redirect of the webhook, to a loopback address no mapping names least of all', async () => {
    const before = hits.length;
    // localhost resolves through the hosts file, so the test asks no DNS server whatever the code does.
    const r = await anwc([...task(), '--resolve', 'localhost:127.0.0.1', '--webhook', `http://localhost:${hookPort}/moved`]);
    assert.equal(r.code, 3, r.stderr);
    assert.deepEqual(hits.slice(before), ['POST /moved'], 'asked once, the redirect not followed');
    const lines = r.stderr.split('\n').filter((l) => /webhook/.test(l));
    assert.deepEqual(lines, [`anwc: webhook http://localhost:${hookPort}/moved not reached: HTTP 302 to http://127.0.0.1:${hookPort}/hook, not followed; give that address as --webhook`]);
  });

  it('refuses a task that mails its notice with no SMTP server to send it through, in one line before any fetching', async () => {
    const file = join(dir, 'mail.mom');
    writeFileSync(file, `<Tree\n  Name docs\n  TopURL ${web.url('note.test', '/docs/index.html')}\n  EmailAddress owner@example.test\n  EmailBroken\n>\n`);
    const seen = web.requests();
    const common = ['--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--max-retries', '0', '--hosts', 'note.test'];
    const fromFile = await anwc(['maintain', file, ...common], { env: { ANWC_SMTP: '' } });
    assert.equal(fromFile.code, 2, fromFile.stderr);
    assert.equal(fromFile.stderr, `anwc: ${file}:1: task docs mails its notice to owner@example.test, but no SMTP server is given to send it through; give --smtp smtp://host:port (or ANWC_SMTP), or drop its EmailAddress\n`);
    const fromFlag = await anwc([...task(), '--email', 'owner@example.test'], { env: { ANWC_SMTP: '' } });
    assert.equal(fromFlag.code, 2, fromFlag.stderr);
    assert.equal(fromFlag.stderr, 'anwc: --email owner@example.test needs an SMTP server to send the notice through; give --smtp smtp://host:port (or ANWC_SMTP), or drop --email\n');
    assert.equal(web.requests(), seen, 'nothing fetched');
  });

  it('sends nothing when nothing the task asks about happened', async () => {
    const before = mails.length;
    web.page('quiet.test', '/', '<html><body><a href="/">self</a></body></html>');
    const r = await anwc(['maintain', '--site', web.url('quiet.test', '/'), '--email', 'owner@example.test', '--smtp', `smtp://127.0.0.1:${smtpPort}`, '--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--hosts', 'quiet.test']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(mails.length, before);
  });

  it('says in one line, without the password, when the mail cannot go; the index is written all the same', async () => {
    const index = join(dir, 'i.html');
    const r = await anwc([...task(), '--email', 'owner@example.test', '--smtp', 'smtp://user:s3cret-pw@127.0.0.1:1', '--out', index]);
    assert.equal(r.code, 3, r.stderr);
    assert.ok(existsSync(index));
    const lines = r.stderr.split('\n').filter((l) => /not sent/.test(l));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /mail to owner@example\.test through smtp:\/\/user:\*\*\*@127\.0\.0\.1:1\/? not sent/);
    assert.doesNotMatch(r.stderr, /s3cret-pw/);
  });

  it('shows no password when the SMTP server quotes the login it refuses, and does not try that login again', async () => {
    // A server that answers AUTH with 535 and the words it was sent, as some do in their logs' tongue.
    const logins: string[] = [];
    const quoting: TcpServer = createTcpServer((socket) => {
      socket.write('220 quoting.test ESMTP\r\n');
      let buffered = '';
      socket.on('data', (d: Buffer) => {
        buffered += d.toString();
        for (let nl = buffered.indexOf('\r\n'); nl >= 0; nl = buffered.indexOf('\r\n')) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 2);
          if (/^(EHLO|HELO)/i.test(line)) socket.write('250-quoting.test\r\n250 AUTH PLAIN\r\n');
          else if (/^AUTH/i.test(line)) {
            logins.push(line);
            const sent = line.split(' ').pop();
            socket.write(`535 5.7.8 ${sent} (${Buffer.from(sent!, 'base64').toString('latin1').replaceAll('\0', ' ')}) refused\r\n`);
          } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
          else socket.write('502 no\r\n');
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((ok) => quoting.listen(0, '127.0.0.1', ok));
    try {
      const port = (quoting.address() as { port: number }).port;
      const r = await anwc([...task(), '--email', 'owner@example.test', '--smtp', `smtp://ane%40example.test:s3cret%2Fpw@127.0.0.1:${port}`]);
      assert.equal(r.code, 3, r.stderr);
      assert.equal(logins.length, 1, 'a refused login is not tried again');
      assert.match(logins[0]!, /^AUTH PLAIN \S+$/);
      const line = r.stderr.split('\n').find((l) => /not sent/.test(l))!;
      assert.match(line, /535 5\.7\.8 \*\*\* \(.*\*\*\*\) refused/);
      for (const secret of ['s3cret/pw', 's3cret%2Fpw', logins[0]!.split(' ').pop()!, Buffer.from('s3cret/pw').toString('base64')]) {
        assert.ok(!r.stderr.includes(secret), `${secret} in ${r.stderr}`);
      }
    } finally {
      await new Promise<void>((ok) => quoting.close(() => ok()));
    }
  });
});
