import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyzeMarkup, documentNodes, serializeMarkup } from '../../src/markup/index.js';

// npm runs tests from the project root, both from sources (tsx) and from dist/.
const SAMPLE = resolve(process.cwd(), 'ane-markup', 'sample.ane');

test('the sample markup that seeds the demo crawl is well formed and already canonical', () => {
  const text = readFileSync(SAMPLE, 'utf8');
  const { document, errors } = analyzeMarkup(text, { file: SAMPLE });
  assert.deepEqual(errors.map((e) => e.toLine()), []);
  assert.equal(serializeMarkup(document), text);
  assert.equal(document.items.filter((i) => i.kind === 'section').length, 4);
  const nodes = documentNodes(document);
  assert.equal(nodes.length, 14);
  for (const node of nodes) {
    assert.ok(node.meta.length >= 2, `node at line ${node.pos?.line} needs meta words to seed a search`);
    assert.ok(node.sentences.length >= 2, `node at line ${node.pos?.line} needs sentences`);
  }
  // Nodes whose words fit the local corpus sites, so the demo crawl finds pages offline.
  const words = new Set(nodes.flatMap((n) => n.meta.map((w) => w.toLowerCase())));
  for (const w of ['time', 'machine', 'detective', 'baker street', 'chickens', 'python', 'packages']) assert.ok(words.has(w), w);
});
