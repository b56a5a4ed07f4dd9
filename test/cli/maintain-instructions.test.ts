import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { parseAvoid, serializeAvoid } from '../../src/maintain/avoid.js';
import { parseInstructions, parseInstructionsJson } from '../../src/maintain/instructions.js';
import { anwc } from '../support/cli.js';
import { needsShared, sharedPath } from '../support/shared.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * The paper's appendix A instruction file, as printed, with its URLs mapped to the local web and
 * its paths into a folder of the test: three tasks that share pages, each URL asked once; the
 * avoid file of appendix C with an entry that expired and one that did not.
 */

/** The code of an appendix of seed paper 004 (its fenced blocks, up to the next appendix). */
function appendix(title: string, next: string): string {
  const text = readFileSync(sharedPath('seeds', '004_598e8a259b32dda1.txt'), 'utf8');
  const at = text.indexOf(`\n${title}\n`);
  const end = text.indexOf(`\n${next}\n`, at + 1);
  return text.slice(at, end < 0 ? undefined : end).split('```').filter((_p, i) => i % 2 === 1).join('\n');
}

describe('parseInstructions', () => {
  it('points at the line and column of what is wrong', () => {
    const bad = (src: string) => {
      try {
        parseInstructions(src, 'f.mom');
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    assert.match(bad('SitesCheck 7\n<Tree\n  Name X\n  TopURL http://x.test/\n  EmailChanged three\n>'), /^f\.mom:5:16: EmailChanged takes a whole number/);
    assert.match(bad('<Web\n>'), /^f\.mom:1:2: no traversal type Web/);
    assert.match(bad('<Tree\n  Name X\n'), /^f\.mom:1:1: the task is never closed/);
    assert.match(bad('<Tree\n  Name X\n>'), /^f\.mom:1:1: task X has no TopURL/);
    assert.match(bad('Frobnicate 1'), /^f\.mom:1:1: no directive Frobnicate/);
    assert.match(bad('<Site\n  Name X\n  TopURL ftp://x/\n>'), /^f\.mom:3:10: TopURL is not an http/);
  });
});

describe('parseInstructionsJson', () => {
  const bad = (src: string) => {
    try {
      parseInstructionsJson(src, 'f.json');
    } catch (err) {
      return (err as Error).message;
    }
    return 'no error';
  };

  it('reads the same instructions as the paper\'s form, keys in any case, tasks keyed by their Name', () => {
    const lines = parseInstructions('AvoidFile a.mom\nSitesCheck 7\n<Owner\n  Name RTF\n  TopURL http://x.test/~f/\n  IndexFile RTF.html\n  EmailAddress f@x.test\n  EmailBroken\n  EmailChanged 3\n>\n', 'f.mom');
    const json = parseInstructionsJson(`{
  "AvoidFile": "a.mom", "sitescheck": 7,
  "tasks": {
    "RTF": {"type": "Owner", "TopURL": "http://x.test/~f/", "IndexFile": "RTF.html", "EmailAddress": "f@x.test", "EmailBroken": true, "EmailRedirected": false, "EmailChanged": 3}
  }
}`, 'f.json');
    assert.deepEqual({ ...json, tasks: json.tasks.map((t) => ({ ...t, line: 0 })) }, { ...lines, tasks: lines.tasks.map((t) => ({ ...t, line: 0 })) });
  });

  it('points at the line and column of what is wrong', () => {
    assert.match(bad('{"tasks": {"X": {"type": "Tree", "TopURL": "http://x.test/",\n "EmailChanged": "three"}}}'), /^f\.json:2:18: EmailChanged takes a whole number/);
    assert.match(bad('{"tasks": {"X": {"type": "Web"}}}'), /^f\.json:1:26: no traversal type web/);
    assert.match(bad('{"tasks": {"X": {"TopURL": "http://x.test/"}}}'), /^f\.json:1:12: task X has no type/);
    assert.match(bad('{"Frobnicate": 1, "tasks": {}}'), /^f\.json:1:2: no directive Frobnicate/);
    assert.match(bad('{"tasks": {"X": {"type": "Site", "TopURL": "ftp://x/"}}}'), /^f\.json:1:44: TopURL is not an http/);
    assert.match(bad('{"tasks": {}}'), /no task/);
    assert.match(bad('{"tasks": {"X": {"type": "Site", "TopURL": ["http://x.test/"]}}}'), /^f\.json:1:44: TopURL takes a string/);
  });
});

describe('avoid files (appendix C)', { skip: needsShared('seeds') }, () => {
  it('reads the paper\'s example, and writes it back without the entries that expired', () => {
    const { entries, errors } = parseAvoid(appendix('Appendix C', 'Appendix D'));
    assert.deepEqual(errors, []);
    assert.ok(entries.length >= 12);
    const now = Date.parse('2026-01-01T00:00:00Z');
    const again = serializeAvoid(entries, now);
    assert.doesNotMatch(again, /momtest\.html|betelgeuse|simplon/, 'the three dated entries expired before 2026');
    assert.match(again, /^Leaf http:\/\/www\.ics\.uci\.edu\/Admin\/ \[\*\]$/m);
    assert.deepEqual(parseAvoid(again).entries.length, entries.length - 3);
  });
});

describe('anwc maintain INSTRUCTIONS', { skip: needsShared('seeds') }, () => {
  let web: TestWeb;
  let dir: string;
  let origin: string;
  const page = (title: string, links: string[], head = '') => `<!DOCTYPE html><html><head><title>${title}</title>${head}</head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
  before(async () => {
    web = await startTestWeb();
    dir = mkdtempSync(join(tmpdir(), 'anwc-mom-'));
    origin = web.url('ics.test', '').replace(/\/$/, '');
    const H = 'ics.test';
    web.page(H, '/ICSHome.html', page('ICS', ['/WebSoft/MOMspider/WWW94/paper.html', '/~fielding/hotlist.html', '/Test/momtest.html', '/Admin/ICS.html', '/gone.html']));
    web.page(H, '/WebSoft/MOMspider/WWW94/paper.html', page('Paper', ['appendix-B.html', '/ICSHome.html']));
    web.page(H, '/WebSoft/MOMspider/WWW94/appendix-B.html', page('Appendix B', []));
    web.page(H, '/~fielding/hotlist.html', page('Hotlist', ['/~fielding/mine.html', '/WebSoft/MOMspider/WWW94/paper.html'], '<meta name="Owner" content="RTF">'));
    web.page(H, '/~fielding/mine.html', page('Mine', []), { headers: { owner: 'RTF' } });
    web.page(H, '/Test/momtest.html', page('Test', []));
    web.page(H, '/Admin/ICS.html', page('Admin', ['/Admin/secret.html']));
    // The user's avoid file: an Avoid whose date passed (momtest is walked) and a Leaf that holds (Admin is not entered).
    mkdirSync(join(dir, 'usr/grads/fielding/test'), { recursive: true });
    writeFileSync(join(dir, 'usr/grads/fielding/test/.momspider-avoid'), `Avoid ${origin}/Test/momtest.html [Sat, 02 Apr 1994 00:00:00 GMT]\nLeaf ${origin}/Admin/ [*]\nAvoid ${origin}/gone.html [Fri, 31 Dec 2999 09:30:00 GMT]\n`);
    for (const d of ['usr/local/httpd/documentroot/MOM', 'usr/local/httpd/documentroot/Admin', 'usr/grads/fielding/public_html/MOM', 'usr/local/httpd/admin']) mkdirSync(join(dir, d), { recursive: true });
    const file = appendix('Appendix A', 'Appendix B').replaceAll('http://www.ics.uci.edu', origin).replace(/ \/usr\//g, ' usr/');
    writeFileSync(join(dir, 'tasks.mom'), file);
  });
  after(async () => {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the paper\'s three tasks as printed, writes each index, and asks each shared URL once', async () => {
    // The tasks mail their owners: through a server of the suite, told nothing as nothing they ask about happens.
    const mails: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
      onData(stream, session, done) {
        mails.push(session.envelope.rcptTo.map((t) => t.address).join());
        stream.resume().on('end', () => done());
      },
    });
    await new Promise<void>((ok) => smtp.listen(0, '127.0.0.1', () => ok()));
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
    try {
      await runPaperTasks(smtpUrl);
    } finally {
      await new Promise<void>((ok) => smtp.close(() => ok()));
    }
    assert.deepEqual(mails, []);
  });

  const runPaperTasks = async (smtpUrl: string) => {
    const r = await anwc(['maintain', join(dir, 'tasks.mom'), '--smtp', smtpUrl, '--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--max-retries', '0', '--hosts', 'ics.test', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const reports = JSON.parse(r.stdout) as { task: { name: string; type: string }; docs: { url: string }[] }[];
    assert.deepEqual(reports.map((x) => `${x.task.type} ${x.task.name}`), ['site ICS', 'tree MOMspider-WWW94', 'owner RTF']);
    for (const f of ['usr/local/httpd/documentroot/MOM/ICS.html', 'usr/local/httpd/documentroot/Admin/MOMspider-WWW94.html', 'usr/grads/fielding/public_html/MOM/RTF.html']) {
      assert.ok(existsSync(join(dir, f)), f);
    }
    assert.match(readFileSync(join(dir, 'usr/local/httpd/documentroot/MOM/ICS.html'), 'utf8'), /<title>MOMspider Index for All of ICS<\/title>/);
    for (const path of ['/ICSHome.html', '/WebSoft/MOMspider/WWW94/paper.html', '/~fielding/hotlist.html', '/WebSoft/MOMspider/WWW94/appendix-B.html']) {
      assert.equal(web.count('ics.test', path), 1, `${path} is asked once for the three tasks`);
    }
    const rtf = reports[2]!.docs.map((d) => new URL(d.url).pathname).sort();
    assert.deepEqual(rtf, ['/~fielding/hotlist.html', '/~fielding/mine.html']);
    assert.equal(web.count('ics.test', '/Test/momtest.html'), 1, 'the expired Avoid no longer applies');
    assert.equal(web.count('ics.test', '/gone.html'), 0, 'a live Avoid is never asked');
    assert.equal(web.count('ics.test', '/Admin/secret.html'), 0, 'a Leaf prefix is not entered');
    const avoid = readFileSync(join(dir, 'usr/grads/fielding/test/.momspider-avoid'), 'utf8');
    assert.doesNotMatch(avoid, /momtest/, 'the expired entry is dropped when the file is written back');
    assert.match(avoid, /^# MOMspider-0\.1a Avoid File/);
    const sites = readFileSync(join(dir, 'usr/grads/fielding/test/.momspider-sites'), 'utf8');
    assert.match(sites, new RegExp(`^Site ics\\.test:${web.port} \\[`, 'm'), 'the SitesFile lists the site whose robots.txt was read');
    assert.ok(!existsSync(join(dir, 'usr/local/httpd/admin/sites.mom')), 'the SystemSites file is read, not made');
  };

  it('runs the same tasks given as JSON', async () => {
    writeFileSync(join(dir, 'tasks.json'), JSON.stringify({ tasks: { Paper: { type: 'Tree', TopURL: `${origin}/WebSoft/MOMspider/WWW94/paper.html`, IndexFile: 'paper.html' } } }));
    const r = await anwc(['maintain', join(dir, 'tasks.json'), '--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--hosts', 'ics.test', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { task: { name: string; type: string }; docs: { url: string }[] };
    assert.deepEqual([report.task.type, report.task.name, report.docs.length], ['tree', 'Paper', 2]);
    assert.ok(existsSync(join(dir, 'paper.html')));
  });
});
