import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anwc } from '../support/cli.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * What a web page, a robots.txt or a markup file says reaches the terminal as text, never as a
 * command to it: an escape (colour, a window title, OSC 52 writing the clipboard) in a title, a
 * rule or a meta word is printed escaped (\x1b), as error lines already are.
 */

const ESC = '\x1b';
const TITLE = `${ESC}]0;pwned${ESC}\\The keeper ${ESC}[31mred`;
const HOST = 'tty.test';

let web: TestWeb;
let dir: string;
before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-tty-'));
  web.page(HOST, '/', `<html><head><title>${TITLE}</title></head><body><p>The keeper of the lighthouse climbed the stairs at night and watched the sea.</p></body></html>`);
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const common = ['--resolve', `${HOST}:127.0.0.1`, '--hosts', HOST, '--delay', '0', '--progress', 'none'];

function shownNotObeyed(out: string, what: string): void {
  assert.ok(!out.includes(ESC), `${what} printed a raw escape: ${JSON.stringify(out)}`);
  assert.match(out, /\\x1b\[31mred/, `${what} shows the escape as text`);
}

describe('a page\'s title reaches the terminal escaped', () => {
  it('map prints its tree, locate its ranking', async () => {
    const map = await anwc(['map', web.url(HOST, '/'), '--depth', '0', ...common]);
    assert.equal(map.code, 0, map.stderr);
    shownNotObeyed(map.stdout, 'map');
    const locate = await anwc(['locate', web.url(HOST, '/'), '--words', 'keeper', '--depth', '0', ...common]);
    assert.equal(locate.code, 0, locate.stderr);
    shownNotObeyed(locate.stdout, 'locate');
  });
});

describe('a file\'s text reaches the terminal escaped', () => {
  it('anwc robots prints a rule, anwc import a meta word, as text', async () => {
    const rules = join(dir, 'robots.txt');
    writeFileSync(rules, `User-agent: *\nDisallow: /a${ESC}[31mred\n`);
    const robots = await anwc(['robots', rules, 'anwc', `http://x.test/a${ESC}[31mred`]);
    assert.equal(robots.code, 1, robots.stderr);
    shownNotObeyed(robots.stdout, 'robots');
    const markup = join(dir, 'story.ane');
    writeFileSync(markup, `{\\node \\meta="keeper${ESC}[31mred" {\\sen The keeper climbed the stairs.}}\n`);
    const imported = await anwc(['import', markup, '--db', `sqlite:${join(dir, 'story.sqlite')}`]);
    assert.equal(imported.code, 0, imported.stderr);
    shownNotObeyed(imported.stdout, 'import');
    const keywords = await anwc(['keywords', '--db', `sqlite:${join(dir, 'story.sqlite')}`]);
    shownNotObeyed(keywords.stdout, 'keywords');
  });
});
