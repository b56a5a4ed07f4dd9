import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { UserError } from '../../errors.js';
import { loadTopics } from '../../feed/profiles.js';
import { openStore } from '../../store/open.js';
import type { LinkEvidence, NodeLink, Store, StoredNode } from '../../store/store.js';
import { nodeVector, topicEvidence, TOPIC_THRESHOLD } from '../../text/profile.js';
import { contentStems } from '../../text/relevance.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';

/** The meta words a node on no topic came closest to, by its text alone (its page is not read again). */
async function closest(store: Store, node: StoredNode, n: number): Promise<{ word: string; score: number; terms: string[] }[]> {
  const stems = contentStems(node.text);
  const vector = nodeVector(stems);
  return (await loadTopics(store))
    .map(({ profile }) => ({ word: profile.word, ...topicEvidence(stems, vector, new Set(), profile) }))
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : 1))
    .slice(0, n)
    .map(({ word, score, terms }) => ({ word, score, terms }));
}

function because(e: LinkEvidence | null, origin: string): string {
  if (!e) return origin === 'author' ? 'the author\'s markup' : 'the word in its text or its page\'s headings (linked before topic profiles)';
  const said = e.literal === 'text' ? 'the word itself in its text' : e.literal === 'heading' ? 'the word in its page\'s title or headings' : '';
  const shared = e.terms.length > 0 ? `shares ${e.terms.join(', ')} with the word's profile (cosine ${e.similarity.toFixed(3)})` : '';
  return [said, shared].filter(Boolean).join('; ');
}

function lines(node: StoredNode, links: NodeLink[], near: { word: string; score: number; terms: string[] }[] | undefined): string[] {
  const from = node.sourceUrl ? ` from ${node.sourceUrl}` : '';
  const out = [`node ${node.id}: ${node.origin}${from}`, `  "${node.text.length > 100 ? `${node.text.slice(0, 100)}…` : node.text}"`];
  if (links.length > 0) {
    out.push(`  linked to ${links.length} meta word(s), drawn in proportion to the weight:`);
    for (const l of links) out.push(`    ${l.metaWord.word}  ${l.weight.toFixed(3)}  ${because(l.evidence, node.origin)}`);
    return out;
  }
  out.push(`  on no topic: no meta word's relevance reaches ${TOPIC_THRESHOLD} with evidence enough, so no click draws it`);
  if (near && near.length > 0) {
    out.push('  closest, by its text:');
    for (const c of near) out.push(`    ${c.word}  ${c.score.toFixed(3)}${c.terms.length > 0 ? `  shares ${c.terms.join(', ')}` : ''}`);
  }
  return out;
}

export const whyNodeCommand: CommandModule = {
  ...ABOUT['why-node'],
  builder: (y) =>
    withOptions(y.positional('id', { type: 'string', describe: 'The node id (anwc pick and anwc export show it)' }), 'db', 'json')
      .example('anwc why-node 42', 'the words node 42 is linked to, and what each link rests on')
      .epilogue('Exit codes: 0 the node is known, 1 there is no node with this id, 2 bad input.'),
  handler: handler(async (argv: Record<string, unknown>) => {
    const raw = String(argv.id ?? '').trim();
    if (!/^[1-9]\d{0,14}$/.test(raw)) throw new UserError('a node id is a whole number from 1', { value: raw, fix: 'e.g. anwc why-node 42' });
    const id = Number(raw);
    const store = await openStore(String(resolved(argv, 'db').value), { mustExist: true });
    try {
      const node = await store.node(id);
      if (!node) {
        process.stderr.write(`anwc: no node ${id} in the database; anwc export --format jsonl lists them with their ids\n`);
        return EXIT.PROBLEMS;
      }
      const links = await store.nodeLinks(id);
      const near = links.length === 0 && node.origin === 'crawler' ? await closest(store, node, 3) : undefined;
      if (argv.json) {
        process.stdout.write(`${JSON.stringify({
          id, origin: node.origin, sourceUrl: node.sourceUrl, onTopic: links.length > 0, threshold: TOPIC_THRESHOLD,
          links: links.map((l) => ({ word: l.metaWord.word, stem: l.metaWord.stem, weight: l.weight, evidence: l.evidence })),
          ...(near ? { closest: near } : {}),
        })}\n`);
      } else process.stdout.write(`${lines(node, links, near).join('\n')}\n`);
      return EXIT.OK;
    } finally {
      await store.close();
    }
  }),
};
