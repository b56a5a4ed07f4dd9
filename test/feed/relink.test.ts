import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, test } from 'node:test';
import seedrandom from 'seedrandom';
import { RELINK_PENDING } from '../../src/feed/import.js';
import { pickNode } from '../../src/feed/pick.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { anwc } from '../support/cli.js';
import { mysqlDb, rawSql, sqliteDb, type TestDb } from '../support/db.js';

/**
 * An author who re-seeds from a new markup file brings new meta words; the crawler nodes harvested
 * before them are linked to them when their text speaks of them, so a click on the new word can
 * draw what the crawl already found.
 */

const SEA = `{\\section \\id="harbour"
  {\\node \\meta="sea, lighthouse"
    {\\sen The keeper watched the sea from the lighthouse every night.}
  }
}
`;
const GARDEN = `{\\section \\id="garden"
  {\\node \\meta="garden, roses"
    {\\sen My grandmother kept a garden of old roses behind the house.}
  }
}
`;
const ABOUT_GARDEN = 'The garden behind the station was planted with beans and marigolds by the porters.';
const ABOUT_SEA = 'Two fishermen rowed out across the sea at dawn to lift their pots.';

async function crawlerNodes(store: Store): Promise<void> {
  const [sea] = await store.ensureMetaWords([{ word: 'sea', stem: 'sea' }]);
  await store.addLinks([{ url: 'http://pages.test/', host: 'pages.test', depth: 0 }]);
  const link = (await store.linkByUrl('http://pages.test/'))!;
  await store.completePage({
    linkId: link.id, outcome: { kind: 'harvested' }, newLinks: [], domainReward: 1,
    nodes: [
      { text: ABOUT_GARDEN, sentences: [ABOUT_GARDEN], metaWordIds: [] },
      { text: ABOUT_SEA, sentences: [ABOUT_SEA], metaWordIds: [sea!.id], metaWeights: [0.75] },
    ],
  });
}

function relinkSuite(name: string, fresh: () => TestDb): void {
  describe(`importing new meta words links the stored crawler nodes (${name})`, () => {
    it('a node harvested before its word existed is drawn for it; links made before are kept as they were', async () => {
      const db = fresh();
      const dir = mkdtempSync(join(tmpdir(), 'anwc-relink-'));
      try {
        writeFileSync(join(dir, 'sea.ane'), SEA);
        writeFileSync(join(dir, 'garden.ane'), GARDEN);
        assert.equal((await anwc(['import', join(dir, 'sea.ane'), '--db', db.url])).code, 0);
        let store = await openStore(db.url);
        try {
          await crawlerNodes(store);
          assert.equal(await pickNode(store, 'garden', { proportion: 1, rng: seedrandom('g') }), undefined, 'no such word yet');
        } finally {
          await store.close();
        }

        const r = await anwc(['import', join(dir, 'garden.ane'), '--db', db.url]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /^stored crawler nodes linked to meta words they speak of: 1 \(1 links\)$/m);

        store = await openStore(db.url);
        try {
          const drawn = (await pickNode(store, 'garden', { proportion: 1, rng: seedrandom('g') }))!;
          assert.equal(drawn.origin, 'crawler');
          assert.equal(drawn.text, ABOUT_GARDEN);
          const [link] = await store.nodeLinks(drawn.id);
          assert.equal(link!.metaWord.word, 'garden');
          assert.equal(link!.evidence?.literal, 'text', 'with the evidence why-node shows');
          const sea = (await store.nodes({ origin: 'crawler', contains: 'rowed out' }))[0]!;
          assert.deepEqual((await store.nodeLinks(sea.id)).map((l) => [l.metaWord.word, l.weight, l.evidence]), [['sea', 0.75, null]], 'its harvest-time link untouched, no garden link');
        } finally {
          await store.close();
        }

        const again = await anwc(['import', join(dir, 'garden.ane'), '--db', db.url, '--json']);
        assert.equal(again.code, 0, again.stderr);
        assert.deepEqual(JSON.parse(again.stdout.trim().split('\n').pop()!).relinked, { nodes: 0, links: 0 }, 'an unchanged file links nothing again');

        // Linking cut short (the mark left set, one link lost): the next import finishes it, files unchanged.
        store = await openStore(db.url);
        try {
          await store.setSetting(RELINK_PENDING, '1');
          await rawSql(db.url, 'DELETE FROM node_meta WHERE node_id = ?', [(await store.nodes({ origin: 'crawler', contains: 'marigolds' }))[0]!.id]);
        } finally {
          await store.close();
        }
        const resumed = await anwc(['import', join(dir, 'garden.ane'), '--db', db.url]);
        assert.equal(resumed.code, 0, resumed.stderr);
        assert.match(resumed.stdout, /^stored crawler nodes linked to meta words they speak of: 1 \(1 links\)$/m);
        const last = await anwc(['import', join(dir, 'garden.ane'), '--db', db.url]);
        assert.doesNotMatch(last.stdout, /linked to meta words/, 'done, the mark is cleared');
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await db.cleanup();
      }
    });
  });
}

relinkSuite('SQLite', sqliteDb);

test('a large store says how far the linking has come', async () => {
  const db = sqliteDb();
  const dir = mkdtempSync(join(tmpdir(), 'anwc-relink-'));
  try {
    const store = await openStore(db.url);
    try {
      await store.addLinks([{ url: 'http://pages.test/', host: 'pages.test', depth: 0 }]);
      const link = (await store.linkByUrl('http://pages.test/'))!;
      const texts = Array.from({ length: 10_500 }, (_, i) => `Paragraph ${i} of a long harvest about the garden and the station.`);
      await store.completePage({ linkId: link.id, outcome: { kind: 'harvested' }, newLinks: [], domainReward: 1, nodes: texts.map((text) => ({ text, sentences: [text], metaWordIds: [] })) });
    } finally {
      await store.close();
    }
    writeFileSync(join(dir, 'garden.ane'), GARDEN);
    const r = await anwc(['import', join(dir, 'garden.ane'), '--db', db.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^anwc: linking the stored crawler nodes to the meta words: 10000 read$/m);
    assert.match(r.stdout, /^stored crawler nodes linked to meta words they speak of: 10500 \(10500 links\)$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await db.cleanup();
  }
});
// Set ANWC_TEST_MYSQL=off to run without a server; otherwise a missing server fails the suite.
if (process.env.ANWC_TEST_MYSQL !== 'off') relinkSuite('MariaDB', mysqlDb);
