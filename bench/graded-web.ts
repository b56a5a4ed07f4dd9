import seedrandom from 'seedrandom';

/**
 * A generated web whose hosts differ in how much narrative they hold and what it is about, so that
 * a page budget shows which walk finds the good hosts: a few story sites whose pages are mostly
 * prose (about lighthouses on some, about town life on others), some mixed sites, and many shops
 * and link lists with a paragraph here and there. Every page links to pages of its own host and
 * now and then to another host's home page; the search results that seed a crawl are the home
 * pages of a few hosts, so the rest are found by walking.
 *
 * Deterministic for a seed: the bench's child process serves what the parent describes.
 */

export interface HostKind {
  name: string;
  count: number;
  /** Share of the host's pages that hold prose paragraphs. */
  narrative: number;
  /** Share of those whose prose is about the topic (lighthouses). */
  onTopic: number;
}

export interface GradedShape {
  seed: number;
  pagesPerHost: number;
  kinds: HostKind[];
  /** Home pages handed to the crawl as search results. */
  seeds: number;
  /** The port the web is served on, for links from one host to another. */
  port?: number;
  /** Links from a page to other pages of its host (5). */
  links?: number;
}

export const TOPIC = 'lighthouse';

/**
 * The web the speed benches crawl (crawl, profile, workers, action): `hosts` hosts alike, seven
 * tenths of their pages narrative, three tenths of those on the topic, every home page a seed.
 */
export function crawlShape(hosts: number, pagesPerHost: number, links = 5): GradedShape {
  return { seed: 1, pagesPerHost, links, seeds: hosts, kinds: [{ name: 'mixed', count: hosts, narrative: 0.7, onTopic: 0.3 }] };
}

export const DEFAULT_KINDS: HostKind[] = [
  { name: 'sea stories', count: 3, narrative: 0.9, onTopic: 0.8 },
  { name: 'town stories', count: 3, narrative: 0.9, onTopic: 0.1 },
  { name: 'mixed', count: 4, narrative: 0.4, onTopic: 0.3 },
  { name: 'shop or link list', count: 14, narrative: 0.05, onTopic: 0.3 },
];

export interface GradedHost {
  host: string;
  kind: string;
  pages: Map<string, string>;
}

export interface GradedWeb {
  hosts: GradedHost[];
  /** Hosts (names) whose home pages seed the crawl. */
  seedHosts: string[];
}

const NAMES = ['Anna', 'Tomas', 'the old keeper', 'my grandfather', 'Marta', 'the doctor', 'Ewan', 'the youngest boy'];
const PLACES = ['the point', 'the north cliff', 'the harbour wall', 'the bay', 'the long beach', 'the river mouth', 'the island', 'the breakwater'];
const TIMES = ['at dusk', 'before dawn', 'in the first week of winter', 'on the night of the storm', 'every evening', 'in the spring of that year'];

const SEA = [
  (n: string, p: string, t: string) => `${cap(n)} climbed the stairs of the ${TOPIC} ${t}, and the lamp was lit before the first boat came round ${p}.`,
  (n: string, p: string, t: string) => `From the ${TOPIC} above ${p} one could see the whole coast, and ${n} watched the boats ${t} until they were small and dark.`,
  (n: string, p: string) => `Nobody in the village remembered when the ${TOPIC} at ${p} was built, but ${n} knew the story of the night it went dark.`,
  (n: string, _p: string, t: string) => `${cap(n)} wrote in the log of the ${TOPIC} that the wind had turned to the east ${t}, and that rain would come before morning.`,
  (n: string, p: string) => `The beam of the ${TOPIC} swept over ${p} and the water below it, and ${n} counted the seconds between the flashes.`,
];
const TOWN = [
  (n: string, p: string, t: string) => `${cap(n)} had never liked the market ${t}, but there was bread to buy and a letter to post near ${p}.`,
  (n: string, _p: string, t: string) => `The train was late again ${t}, so ${n} sat on the bench and told us about the winter when the river froze.`,
  (n: string, p: string) => `In the kitchen of the inn by ${p} there was always soup on the stove, and ${n} sang while the bread was baking.`,
  (n: string, _p: string, t: string) => `${cap(n)} found a letter in the attic ${t} that nobody had opened for thirty years, and we read it by the window.`,
  (n: string, p: string) => `The school stood at the end of the lane near ${p}, and ${n} walked there every morning with a satchel full of books.`,
];
const GOODS = ['Blue kettle', 'Garden hose', 'Tea towel set', 'Brass lamp', 'Rope, 10 m', 'Rain jacket', 'Tide table', 'Map of the coast'];

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function hostName(i: number): string {
  return `h${i}.graded.test`;
}

const origin = (i: number, port?: number) => `http://${hostName(i)}${port === undefined ? '' : `:${port}`}`;

/** The whole web for a shape: host names, their kinds and every page's HTML. */
export function gradedWeb(shape: GradedShape): GradedWeb {
  const rng = seedrandom(`graded-${shape.seed}`);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  // Shuffled so that a host's number says nothing of its kind.
  const kinds = shuffle(shape.kinds.flatMap((k) => Array.from({ length: k.count }, () => k)), rng);
  const n = kinds.length;
  const sentence = (bank: typeof SEA) => pick(bank)(pick(NAMES), pick(PLACES), pick(TIMES));
  const paragraph = (about: boolean) => {
    const count = 2 + Math.floor(rng() * 2);
    const parts = [sentence(about ? SEA : TOWN)];
    for (let i = 1; i < count; i++) parts.push(sentence(about && rng() < 0.5 ? SEA : TOWN));
    return parts.join(' ');
  };

  const hosts: GradedHost[] = kinds.map((kind, h) => {
    const plan = Array.from({ length: shape.pagesPerHost }, () => {
      const prose = rng() < kind.narrative;
      return { prose, about: prose && rng() < kind.onTopic };
    });
    const title = (p: number) => {
      const { prose, about } = plan[p]!;
      if (!prose) return `Offers, page ${p + 1}`;
      return about ? `The ${TOPIC} at ${pick(PLACES)} (${p + 1})` : `Notes from the town (${p + 1})`;
    };
    const titles = plan.map((_, p) => title(p));
    const pages = new Map<string, string>();
    pages.set('/robots.txt', 'User-agent: *\nAllow: /\n');
    for (let p = 0; p < shape.pagesPerHost; p++) {
      const { prose, about } = plan[p]!;
      const body: string[] = [];
      if (prose) {
        const count = 2 + Math.floor(rng() * 3);
        for (let i = 0; i < count; i++) body.push(`<p>${esc(paragraph(about))}</p>`);
      } else {
        const rows = Array.from({ length: 6 }, () => `<tr><td>${pick(GOODS)}</td><td>$${(1 + rng() * 40).toFixed(2)}</td><td>In stock</td></tr>`);
        body.push(`<table>${rows.join('')}</table>`, '<p>Free delivery over $50 | Returns | Contact</p>');
      }
      // The next page keeps every page reachable; the others are drawn at random.
      const targets = new Set([(p + 1) % shape.pagesPerHost]);
      while (targets.size < Math.min(shape.links ?? 5, shape.pagesPerHost - 1)) targets.add(Math.floor(rng() * shape.pagesPerHost));
      targets.delete(p);
      const links = [...targets].map((t) => `<li><a href="/p${t}.html">${esc(titles[t]!)}</a></li>`);
      if (rng() < 0.3) {
        const other = (h + 1 + Math.floor(rng() * (n - 1))) % n;
        links.push(`<li><a href="${origin(other, shape.port)}/">Friends of this site</a></li>`);
      }
      const html =
        `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${esc(titles[p]!)}</title></head><body>` +
        `<nav><a href="/">Home</a> | <a href="/p0.html">Start</a></nav><h1>${esc(titles[p]!)}</h1>${body.join('')}` +
        `<ul>${links.join('')}</ul><footer><p>© 2026 ${hostName(h)}</p></footer></body></html>`;
      pages.set(`/p${p}.html`, html);
    }
    // The home page is the host's first page under another name, with a link to another host.
    const home = pages.get('/p0.html')!.replace('</ul>', `<li><a href="${origin((h + 1) % n, shape.port)}/">Elsewhere</a></li></ul>`);
    pages.set('/', home);
    return { host: hostName(h), kind: kind.name, pages };
  });
  const order = shuffle(hosts.map((_, i) => i), rng);
  return { hosts, seedHosts: order.slice(0, Math.min(shape.seeds, n)).map(hostName) };
}

/** Fisher-Yates, in place. */
function shuffle<T>(xs: T[], rng: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}
