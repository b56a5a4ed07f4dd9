import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import seedrandom from 'seedrandom';
import { exportNodes } from '../../src/feed/export.js';
import { exportSentences } from '../../src/feed/formats.js';
import { importFiles } from '../../src/feed/import.js';
import { getProportion, setProportion } from '../../src/feed/mix.js';
import { pickNode } from '../../src/feed/pick.js';
import { openStore } from '../../src/store/open.js';
import type { Store, StoredNode } from '../../src/store/store.js';
import { mysqlDb, sqliteDb, type TestDb } from '../support/db.js';

const STORY = String.raw`{\section \display \id="begin"
  {\node \meta="none, recited, start, begin"
    {\sen I am revisiting a reading error.}
    {\sen The machine demands language.}
  }
  {\node \meta="vision, blindness"
    {\sen But what could this new loss of vision possibly reveal to you about yourself.}
  }
}
{\node \meta="世界, שלום, begin"
  {\sen 世界は広い。}
  {\sen Braces \{stay\} and a back\\slash too 🌍.}
}
`;

const shape = (n: StoredNode) => ({ text: n.text, sentences: exportSentences(n), meta: n.metaWords.map((m) => m.stem).sort() });
const sortShapes = (nodes: StoredNode[]) => nodes.map(shape).sort((a, b) => (a.text < b.text ? -1 : 1));

async function harvest(store: Store): Promise<void> {
  const [begin, world] = await store.ensureMetaWords([{ word: 'begin', stem: 'begin' }, { word: '世界', stem: '世界' }]);
  await store.addLinks([{ url: 'http://web.test/start', host: 'web.test', depth: 0 }]);
  const link = (await store.linkByUrl('http://web.test/start'))!;
  await store.completePage({
    linkId: link.id, outcome: { kind: 'harvested' }, newLinks: [], domainReward: 1,
    nodes: [
      { text: 'Every beginning is hard. The second step is easier, they say.', sentences: ['Every beginning is hard. The second step is easier, they say.'], metaWordIds: [begin!.id] },
      { text: 'مرحبا بالعالم. A mixed "quoted" line {with braces}.', sentences: [], metaWordIds: [begin!.id, world!.id] },
    ],
  });
}

function roundTrip(name: string, fresh: () => TestDb): void {
  it(`import → mix → pick → export → import keeps every node on ${name}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-roundtrip-'));
    const [db1, db2] = [fresh(), fresh()];
    const [s1, s2] = [await openStore(db1.url), await openStore(db2.url)];
    try {
      writeFileSync(join(dir, 'story.ane'), STORY);
      const imported = await importFiles(s1, [join(dir, 'story.ane')]);
      assert.deepEqual(imported.files.map((f) => [f.status, f.nodes]), [['imported', 3]]);
      assert.ok(imported.unsearched.some((m) => m.stem === '世界'));
      await harvest(s1);

      await setProportion(s1, 0.3);
      assert.equal((await getProportion(s2)).source, 'default', 'the setting belongs to its database');
      const rng = seedrandom('rt');
      const origins = new Set<string>();
      for (let i = 0; i < 50; i++) origins.add((await pickNode(s1, 'beginning', { proportion: (await getProportion(s1)).value, rng }))!.origin);
      assert.deepEqual([...origins].sort(), ['author', 'crawler']);

      let ane = '';
      const count = await exportNodes(s1, { origin: 'all', format: 'ane' }, (c) => void (ane += c));
      assert.equal(count, 5);
      writeFileSync(join(dir, 'export.ane'), ane);
      const again = await importFiles(s2, [join(dir, 'export.ane')]);
      assert.deepEqual(again.files[0]!.errors, []);
      assert.deepEqual(sortShapes(await s2.nodes({})), sortShapes(await s1.nodes({})));

      // The export of the re-import is the same text: nothing drifts on a second trip.
      let ane2 = '';
      await exportNodes(s2, { origin: 'all', format: 'ane' }, (c) => void (ane2 += c));
      assert.deepEqual(ane2.split('\n').sort(), ane.split('\n').sort());
    } finally {
      await s1.close();
      await s2.close();
      await db1.cleanup();
      await db2.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

describe('feed round trip', () => {
  roundTrip('SQLite', sqliteDb);
  if (process.env.ANWC_TEST_MYSQL !== 'off') roundTrip('MariaDB/MySQL', mysqlDb);
});
