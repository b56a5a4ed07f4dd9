import { escapeXml as xmlText } from '../html/escape.js';
import type { MapNode, SiteMap } from './graph.js';

/**
 * The link multigraph as GraphML (yEd, Gephi, NetworkX) and GEXF 1.3 (Gephi). Page titles and
 * URLs are hostile: every value is escaped, and characters XML 1.0 forbids are dropped, so the
 * file always parses.
 */

const NODE_FIELDS = [
  ['url', 'string'], ['title', 'string'], ['state', 'string'], ['status', 'int'], ['contentType', 'string'],
  ['lastModified', 'string'], ['depth', 'int'], ['outcome', 'string'],
] as const satisfies readonly (readonly [keyof MapNode, string])[];

const present = (n: MapNode) => NODE_FIELDS.filter(([k]) => n[k] !== undefined && n[k] !== '');

export function mapGraphml(map: SiteMap): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    ...NODE_FIELDS.map(([k, type]) => `  <key id="${k}" for="node" attr.name="${k}" attr.type="${type}"/>`),
    '  <key id="tag" for="edge" attr.name="tag" attr.type="string"/>',
    '  <graph id="site" edgedefault="directed">',
  ];
  for (const n of map.nodes) {
    out.push(`    <node id="${n.id}">${present(n).map(([k]) => `<data key="${k}">${xmlText(String(n[k]))}</data>`).join('')}</node>`);
  }
  for (const e of map.edges) out.push(`    <edge id="${e.id}" source="${e.source}" target="${e.target}"><data key="tag">${xmlText(e.tag)}</data></edge>`);
  out.push('  </graph>', '</graphml>');
  return `${out.join('\n')}\n`;
}

export function mapGexf(map: SiteMap, made = new Date()): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">',
    `  <meta lastmodifieddate="${made.toISOString().slice(0, 10)}"><creator>anwc</creator><description>${xmlText(`links walked from ${map.roots.join(' ')}`)}</description></meta>`,
    '  <graph defaultedgetype="directed" mode="static">',
    '    <attributes class="node">',
    ...NODE_FIELDS.map(([k, type], i) => `      <attribute id="${i}" title="${k}" type="${type === 'int' ? 'integer' : 'string'}"/>`),
    '    </attributes>',
    '    <attributes class="edge"><attribute id="0" title="tag" type="string"/></attributes>',
    '    <nodes>',
  ];
  for (const n of map.nodes) {
    const values = NODE_FIELDS.map(([k], i) => (n[k] === undefined || n[k] === '' ? '' : `<attvalue for="${i}" value="${xmlText(String(n[k]))}"/>`)).join('');
    out.push(`      <node id="${n.id}" label="${xmlText(n.title || n.url)}"><attvalues>${values}</attvalues></node>`);
  }
  out.push('    </nodes>', '    <edges>');
  // Parallel edges are links repeated on a page; GEXF keeps them apart by their kind.
  for (const e of map.edges) out.push(`      <edge id="${e.id}" source="${e.source}" target="${e.target}" kind="${xmlText(e.tag)}"><attvalues><attvalue for="0" value="${xmlText(e.tag)}"/></attvalues></edge>`);
  out.push('    </edges>', '  </graph>', '</gexf>');
  return `${out.join('\n')}\n`;
}
