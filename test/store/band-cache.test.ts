import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { rawSql, sqliteDb } from '../support/db.js';

/**
 * SQLite's near-copy search reads band keys from memory, brought up to date from the table
 * (src/store/sqlite/bands.ts): what another store on the same file wrote, edited or wrote again
 * under an id freed by a delete must be found as the table has it.
 */

const sig = (base: number) => Array.from({ length: 16 }, (_, k) => base + k);

async function page(s: Store, n: number, bands: number[]): Promise<number> {
  const url = `http://copies.test/${n}`;
  await s.addLinks([{ url, host: 'copies.test', depth: 0 }]);
  const text = `Paragraph ${n}, long enough to stand as a node of its own on the page.`;
  const done = await s.completePage({
    linkId: (await s.linkByUrl(url))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
    nodes: [{ text, sentences: [text], metaWordIds: [], bands }],
  });
  return done.nodeIds[0]!;
}

const found = async (s: Store, bands: number[]) => (await s.nodesSharingBands([bands], 8))[0]!.map((c) => c.id);

test('SQLite: a store finds what another store on the same file wrote, edited, or wrote again under a freed id', async () => {
  const db = sqliteDb();
  const a = await openStore(db.url);
  const b = await openStore(db.url);
  try {
    const first = await page(a, 1, sig(100));
    assert.deepEqual(await found(b, sig(100)), [first], 'read whole at the first search');
    const second = await page(a, 2, sig(200));
    assert.deepEqual(await found(b, sig(200)), [second], 'the rows written since');
    assert.deepEqual(await found(b, sig(100)), [first]);

    await a.curateNode(second, { text: { text: 'Paragraph two, as its author has it now.', sentences: [], bands: sig(300) } }, 'ann', 5);
    assert.deepEqual(await found(b, sig(300)), [second], 'the new keys of an edited node');
    assert.deepEqual(await found(b, sig(200)), [], 'and not its old ones');

    // The newest node deleted: SQLite gives its id to the next node.
    await rawSql(db.url, 'DELETE FROM node_bands WHERE node_id = ?', [second]);
    await rawSql(db.url, 'DELETE FROM nodes WHERE id = ?', [second]);
    const third = await page(a, 3, sig(400));
    assert.equal(third, second, 'the id came back');
    assert.deepEqual(await found(b, sig(400)), [third], 'found under the id it took again');
    assert.deepEqual(await found(b, sig(300)), []);
  } finally {
    await a.close();
    await b.close();
    await db.cleanup();
  }
});
