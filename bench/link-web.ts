import seedrandom from 'seedrandom';

/**
 * A generated site to check for links, with its truth: P pages on www.site.test that link one
 * another (a tree from the home page, so every page is reachable, plus random cross links), and
 * what a real site references besides: images and PDFs, pages on five other hosts (served from a
 * second loopback address), downloads and endpoints that refuse HEAD with 405 but answer GET,
 * and the faults a checker must find — broken links (404, 410, 500) and moved ones (chains of
 * one to three 301/302/308 hops that end at a page) — on the site and off it, each referenced
 * from one to three pages.
 *
 * Deterministic for a seed, size and ports: the bench's server process serves what the bench
 * scores against.
 */

export interface LinkWebShape {
  seed: number;
  pages: number;
  /** Port of www.site.test (127.0.0.1). */
  sitePort: number;
  /** Port of the *.offsite.test hosts (127.0.0.2 where it is loopback). */
  offPort: number;
}

/** What the server answers for a host + path. */
export interface Answer {
  status: number;
  type?: string;
  location?: string;
  /** An HTML body. */
  html?: string;
  /** A binary body of this many bytes. */
  bytes?: number;
  /** HEAD is refused with 405; GET answers as above. */
  noHead?: boolean;
}

export interface LinkWeb {
  top: string;
  /** `host:port/path` → answer. */
  answers: Map<string, Answer>;
  /** Absolute URLs as the pages reference them. */
  truth: { broken: string[]; moved: string[]; noHead: string[] };
  /** Counts of each kind, for the table's caption. */
  kinds: Record<'pages' | 'images' | 'pdfs' | 'offsite' | 'noHead' | 'broken' | 'moved', number>;
}

export const SITE_HOST = 'www.site.test';
export const OFF_HOSTS = Array.from({ length: 5 }, (_, i) => `o${i + 1}.offsite.test`);
/** robots.txt of every host: everything allowed. */
export const ROBOTS = 'User-agent: *\nDisallow:\n';

const FILLER = 'This page belongs to a site its owner keeps: notes, a few pictures, a report or two as PDF, '
  + 'and links to pages elsewhere that were worth reading when they were added. Links break as the web moves on. ';

export function keyOf(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}${u.search}`;
}

export function linkWeb(shape: LinkWebShape): LinkWeb {
  if (!Number.isInteger(shape.pages) || shape.pages < 2) throw new Error(`a link web needs 2 pages or more, not ${shape.pages}`);
  const rng = seedrandom(`links-${shape.seed}-${shape.pages}`);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const site = (path: string) => `http://${SITE_HOST}:${shape.sitePort}${path}`;
  const off = (host: string, path: string) => `http://${host}:${shape.offPort}${path}`;
  const answers = new Map<string, Answer>();
  const set = (url: string, a: Answer) => answers.set(keyOf(url), a);
  const P = shape.pages;
  const pageUrl = (i: number) => site(i === 0 ? '/' : `/p/${i}.html`);
  const count = (per: number) => Math.max(1, Math.ceil(P / per));

  for (const h of [SITE_HOST, ...OFF_HOSTS]) {
    answers.set(`${h}:${h === SITE_HOST ? shape.sitePort : shape.offPort}/robots.txt`, { status: 200, type: 'text/plain', html: ROBOTS });
  }
  const images = Array.from({ length: count(10) }, (_, k) => site(`/img/${k}.png`));
  for (const u of images) set(u, { status: 200, type: 'image/png', bytes: int(8, 40) * 1024 });
  const pdfs = Array.from({ length: count(40) }, (_, k) => site(`/docs/report-${k}.pdf`));
  for (const u of pdfs) set(u, { status: 200, type: 'application/pdf', bytes: int(100, 300) * 1024 });
  const offsite = Array.from({ length: count(5) }, (_, k) => off(OFF_HOSTS[k % OFF_HOSTS.length]!, `/article/${k}.html`));
  for (const u of offsite) set(u, { status: 200, type: 'text/html; charset=utf-8', html: page('Elsewhere', [], 3) });
  // Downloads on the site and endpoints off it that refuse HEAD: fine links, found only by a GET.
  const noHead = Array.from({ length: count(40) }, (_, k) => (k % 2 === 0 ? site(`/files/data-${k}.zip`) : off(OFF_HOSTS[k % OFF_HOSTS.length]!, `/api/item/${k}`)));
  for (const u of noHead) set(u, u.endsWith('.zip') ? { status: 200, type: 'application/zip', bytes: int(20, 80) * 1024, noHead: true } : { status: 200, type: 'application/json', html: '{"ok":true}', noHead: true });

  const broken: string[] = [];
  // Six in ten answer 404, two 410 and two 500, whatever the size; a third are off the site.
  const statuses = [404, 410, 500, 404, 404, 410, 404, 404, 500, 404];
  for (let k = 0; k < count(20); k++) {
    const status = statuses[k % statuses.length]!;
    const url = rng() < 1 / 3 ? off(OFF_HOSTS[k % OFF_HOSTS.length]!, `/gone/${k}.html`) : site(`/old-notes/${k}.html`);
    set(url, { status, type: 'text/html; charset=utf-8', html: page(`${status}`, [], 1) });
    broken.push(url);
  }
  const moved: string[] = [];
  const codes = [301, 302, 308];
  for (let k = 0; k < count(20); k++) {
    const onSite = rng() >= 1 / 3;
    const host = OFF_HOSTS[k % OFF_HOSTS.length]!;
    const at = (path: string) => (onSite ? site(path) : off(host, path));
    const end = onSite ? pageUrl(int(1, P - 1)) : offsite[k % offsite.length]!;
    const hops = int(1, 3);
    const chain = Array.from({ length: hops }, (_, h) => at(`/moved/${k}/${h}.html`));
    chain.forEach((u, h) => set(u, { status: pick(codes), location: h + 1 < hops ? chain[h + 1]! : end }));
    moved.push(chain[0]!);
  }

  // Each page: its children in the tree and a few random pages, an image or two, now and then a
  // PDF or a page elsewhere; then every leaf and fault is placed on a page (one to three).
  const refs: string[][] = Array.from({ length: P }, (_, i) => {
    const out = [2 * i + 1, 2 * i + 2].filter((c) => c < P).map(pageUrl);
    for (let n = 0; n < 4 && P > 1; n++) out.push(pageUrl(int(0, P - 1)));
    out.push(pick(images));
    if (rng() < 0.5) out.push(pick(images));
    if (rng() < 0.1) out.push(pick(pdfs));
    if (rng() < 0.3) out.push(pick(offsite));
    return out;
  });
  for (const url of [...images, ...pdfs, ...offsite, ...noHead, ...broken, ...moved]) {
    for (let n = int(1, 3); n > 0; n--) refs[int(0, P - 1)]!.push(url);
  }
  for (let i = 0; i < P; i++) set(pageUrl(i), { status: 200, type: 'text/html; charset=utf-8', html: page(i === 0 ? 'Home' : `Page ${i}`, refs[i]!, 4) });
  return {
    top: pageUrl(0),
    answers,
    truth: { broken, moved, noHead },
    kinds: { pages: P, images: images.length, pdfs: pdfs.length, offsite: offsite.length, noHead: noHead.length, broken: broken.length, moved: moved.length },
  };
}

function page(title: string, refs: string[], paragraphs: number): string {
  const link = (u: string) => (/\.png$/.test(u) ? `<img src="${u}" alt="">` : `<a href="${u}">${u.replace(/^https?:\/\/[^/]+/, '')}</a>`);
  return [
    `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>`,
    ...Array.from({ length: paragraphs }, () => `<p>${FILLER}</p>`),
    '<ul>', ...refs.map((u) => `<li>${link(u)}</li>`), '</ul></body></html>',
  ].join('\n');
}

/** Found against the truth: the share of each kind found, and what was called broken or moved that is neither. */
export interface Score {
  brokenFound: number;
  movedFound: number;
  brokenRecall: number;
  movedRecall: number;
  falseAlarms: number;
}

export function score(truth: LinkWeb['truth'], found: { broken: readonly string[]; moved: readonly string[] }): Score {
  const norm = (u: string) => new URL(u).href;
  const tb = new Set(truth.broken.map(norm));
  const tm = new Set(truth.moved.map(norm));
  const fb = new Set(found.broken.map(norm));
  const fm = new Set(found.moved.map(norm));
  const brokenFound = [...fb].filter((u) => tb.has(u)).length;
  const movedFound = [...fm].filter((u) => tm.has(u)).length;
  return {
    brokenFound, movedFound,
    brokenRecall: tb.size === 0 ? 1 : brokenFound / tb.size,
    movedRecall: tm.size === 0 ? 1 : movedFound / tm.size,
    falseAlarms: fb.size - brokenFound + fm.size - movedFound,
  };
}
