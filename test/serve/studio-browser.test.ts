import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startDemoWeb, type DemoWeb } from '../../src/demo/index.js';
import { openStore } from '../../src/store/open.js';
import { launchChromium, needsChromium } from '../support/chromium.js';
import { HOSTILE, SAMPLE, hostileDatabase, startStudio, type Studio } from '../support/studio.js';

const skip = needsChromium();
const SHOTS = resolve('test-output', 'studio');
const WAIT = { timeout: 90_000 };

/**
 * The studio end to end in a real browser: markup uploaded, seeded from the local search stand-in,
 * harvested from the local web, words clicked on the evolving page, foreign text curated, the mix
 * changed; a hostile node and meta word are shown on every page, and no script of theirs runs.
 */
describe('anwc serve in Chromium', { skip }, () => {
  let dir: string;
  let db: string;
  let hostileId: number;
  let web: DemoWeb;
  let studio: Studio;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const errors: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  /** Nothing a hostile text carried ran here: no dialog, no global it would set, only our own script element. */
  const clean = async (where: string) => {
    assert.deepEqual(dialogs, [], where);
    assert.equal(await page.evaluate(() => (globalThis as { __xss?: number }).__xss), undefined, where);
    assert.equal(await page.locator('script').count(), 1, where);
  };

  /** Waits for the job the page follows to end, and says how it ended when that was not well. */
  const ended = async (kind: string) => {
    const job = page.locator('#job .job:not(.running):not(.stopping)', { hasText: kind });
    await job.waitFor(WAIT);
    return page.locator('#job').innerText();
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'anwc-studio-browser-'));
    ({ db, hostileId } = await hostileDatabase(dir, { sample: false }));
    web = await startDemoWeb({ port: 0 });
    // The children the studio starts read the local web's addresses from its --config file.
    const config = join(dir, 'studio.json');
    writeFileSync(config, JSON.stringify({ provider: 'wikipedia', 'search-endpoint': web.searchEndpoint, resolve: web.resolve, hosts: '*.demo', delay: 0 }));
    studio = await startStudio(['--db', db, '--config', config, '--uploads', join(dir, 'uploads'), '--who', 'author'], { cwd: dir });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(studio.printed);
  });

  after(async () => {
    await browser?.close();
    const end = await studio?.stop();
    await web?.close();
    rmSync(dir, { recursive: true, force: true });
    assert.equal(end?.code, 0, end?.stderr);
  });

  it('imports markup from the page, seeds from the local search engine and harvests the local web with live progress', async () => {
    await page.goto(`${studio.origin}/steer`);
    await page.setInputFiles('input[name=file]', SAMPLE);
    await page.click('form[action="/import"] button');
    await page.locator('.notice', { hasText: 'sample.ane: imported, 14 author nodes' }).waitFor();
    await page.click('#seed');
    assert.match(await ended('seed'), /^seed done/);
    await page.fill('input[name=max-pages]', '40');
    await page.click('#harvest');
    assert.match(await ended('harvest'), /^harvest done/);
    await shot('steer');
    const store = await openStore(db);
    try {
      const s = await store.summary();
      assert.ok(s.nodes.crawler > 1, `the harvest stored nodes: ${JSON.stringify(s.nodes)}`);
      assert.ok((s.links.done ?? 0) >= 10, JSON.stringify(s.links));
    } finally {
      await store.close();
    }
    await clean('steer');
  });

  it('stops a harvest from the page, its pages in flight saved', async () => {
    await page.goto(`${studio.origin}/steer`);
    await page.click('#harvest');
    await page.click('#stop');
    assert.match(await ended('harvest'), /^harvest (interrupted \(exit 130\)|done \(exit 0\))/);
  });

  it('draws the wheel as a pie with its table', async () => {
    await page.goto(`${studio.origin}/wheel`);
    const slices = await page.locator('svg.pie path.slice').count();
    assert.ok(slices >= 2, `slices: ${slices}`);
    assert.equal(await page.locator('.wheel-table tbody tr').count(), slices, 'a row for every slice');
    assert.ok(await page.locator('svg.timeline rect').count() > 0, 'nodes over time are drawn');
    assert.ok(await page.locator('.timeline-table tbody tr').count() >= 2, 'and tabled, a row per domain');
    await shot('wheel');
    await clean('wheel');
  });

  it('sets the mix with the slider', async () => {
    await page.goto(`${studio.origin}/steer`);
    await page.locator('#proportion').fill('100');
    assert.equal(await page.locator('#mix-value').innerText(), '100 %', 'the slider says its value as it moves');
    await page.click('form.mix button');
    await page.locator('.notice', { hasText: 'crawler nodes in a pick: 100 %' }).waitFor();
  });

  it('swaps a clicked word\'s node on the evolving page, shows where a crawler node came from, and steps back', async () => {
    await page.goto(`${studio.origin}/story?seed=3`);
    const first = await page.locator('.node').evaluateAll((ns) => ns.map((n) => n.getAttribute('data-node')));
    assert.equal(first.length, 14);
    let swappedSlot: string | null = null;
    // With the mix at 1 a click draws a crawler node whenever the word has one: a few words are enough.
    for (let i = 0; i < 20 && swappedSlot === null; i++) {
      await page.locator('a.word').nth(i * 3).click();
      await page.waitForLoadState();
      const crawler = page.locator('.node.crawler.swapped');
      if (await crawler.count() > 0) swappedSlot = await crawler.getAttribute('data-slot');
    }
    assert.notEqual(swappedSlot, null, 'a click brought a crawler node');
    const node = page.locator(`.node[data-slot="${swappedSlot}"]`);
    assert.match(await node.locator('.meta a').first().getAttribute('href') ?? '', /^http:\/\/[a-z.-]+\.demo:\d+\//);
    await shot('story');
    await page.click('#step-back');
    await page.waitForLoadState();
    assert.equal(await page.locator(`.node[data-slot="${swappedSlot}"]`).getAttribute('data-node'), first[Number(swappedSlot)]);
    await clean('story');
  });

  it('curates foreign text: a hostile node shown as text, rejected; another edited and re-tagged, with the audit', async () => {
    await page.goto(`${studio.origin}/nodes?q=keeper+wrote`);
    const hostile = page.locator(`li[data-node="${hostileId}"]`);
    assert.equal(await hostile.locator('p').first().innerText(), HOSTILE.text);
    assert.equal(await hostile.locator('.meta a').nth(1).getAttribute('href'), '#', 'a javascript: source is not a link');
    await hostile.locator('button[value=rejected]').click();
    await page.locator('.notice', { hasText: `node ${hostileId} rejected` }).waitFor();
    await clean('nodes');

    await page.goto(`${studio.origin}/nodes?review=unreviewed`);
    const other = page.locator('li.node').first();
    const id = await other.getAttribute('data-node');
    await other.locator('a', { hasText: `node ${id}` }).click();
    await page.fill('#words', 'nonsense');
    await page.click('form.edit button');
    await page.locator('.notice.error', { hasText: '"nonsense" is not a meta word' }).waitFor();
    await page.fill('#text', 'The lighthouse keeper kept a log of every ship that passed in the night.');
    await page.fill('#words', 'lighthouse, ship');
    await page.click('form.edit button');
    await page.locator('.notice', { hasText: 'saved' }).waitFor();
    assert.deepEqual(await page.locator('table.audit tbody tr td:nth-child(3)').allInnerTexts(), ['meta', 'text']);
    await shot('node');
    await page.goto(`${studio.origin}/steer`);
    await clean('steer with the hostile meta word');
    assert.match(await page.locator('table').last().innerText(), /<img src=x onerror=/);
    assert.deepEqual(errors, []);
  });
});
