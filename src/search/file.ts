import { readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import type { ProviderConfig, SearchOptions, SearchProvider, SearchQuery, SearchResult } from './provider.js';
import { metaSetKey, normalizeMetaSet } from './query.js';
import { stem } from '../text/stem.js';
import { normalizeUrl } from '../web/url.js';

const NAME = 'file';

/** The URLs a seed file lists under one meta set, in file order. */
export interface SeedGroup {
  words: string[];
  urls: string[];
}

/**
 * Reads a seed file: one URL a line; blank lines and `#` comments are skipped; a line
 * `# meta: sea, storm` gives the meta words (comma-separated; quotes around a word are optional) of the URLs below it, until the next such line.
 * URLs above the first meta line take `defaultMeta` (`--meta`). Groups with the same meta set
 * (in any order or case) are merged. A bad line is a UserError at file:line:col.
 */
export function parseSeedFile(text: string, file: string, defaultMeta: readonly string[] = []): SeedGroup[] {
  const groups = new Map<string, SeedGroup>();
  let meta = normalizeMetaSet(defaultMeta);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const indent = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (!body) return;
    if (body.startsWith('#')) {
      const m = /^#\s*meta\s*:(.*)$/i.exec(body);
      if (!m) return;
      const words = normalizeMetaSet(m[1]!.split(',').map((w) => w.trim().replace(/^"(.*)"$/, '$1')));
      if (words.length === 0) {
        throw new UserError('a meta line names no words', {
          file, line, col: indent + 1, value: body, fix: 'list the meta words after "meta:", separated by commas',
        });
      }
      meta = words;
      return;
    }
    // A URL may carry a #fragment, so only a # after whitespace starts a trailing comment.
    const token = body.replace(/\s+#.*$/, '');
    if (/\s/.test(token)) {
      throw new UserError('one URL a line', { file, line, col: indent + token.search(/\s/) + 1, value: token, fix: 'put each URL on its own line' });
    }
    let url: URL;
    try {
      url = new URL(token);
    } catch {
      throw new UserError('not an absolute URL', { file, line, col: indent + 1, value: token, fix: 'write it as http://host/path or https://host/path' });
    }
    // The frontier's own check: a URL it would refuse is the file's error, not a silent gap.
    const n = normalizeUrl(token);
    if (!n.ok && n.reason === 'bad-scheme') {
      throw new UserError('only http and https URLs can seed a crawl', { file, line, col: indent + 1, value: token, fix: 'remove the line or give an http(s) URL' });
    }
    if (!n.ok) {
      throw new UserError(`not a URL a crawl can fetch: ${n.detail}`, { file, line, col: indent + 1, value: token, fix: 'write it as http://host/path or https://host/path' });
    }
    if (meta.length === 0) {
      throw new UserError('this URL has no meta words', {
        file, line, col: indent + 1, value: token, fix: 'add a line "# meta: word, word" above it, or give --meta',
      });
    }
    const key = metaSetKey(meta);
    const group = groups.get(key) ?? { words: meta, urls: [] };
    if (!group.urls.includes(url.href)) group.urls.push(url.href);
    groups.set(key, group);
  });
  return [...groups.values()];
}

/**
 * Seeds from a file the user wrote: no network at all. Its queries come from the file
 * (`ownQueries`), so seeding asks for exactly the meta sets the file names.
 */
export function fileProvider(config: ProviderConfig = {}): SearchProvider {
  if (!config.file) {
    throw new UserError('the file provider needs --seed-file PATH', { fix: 'give a file with one URL a line and "# meta: …" lines' });
  }
  let text: string;
  try {
    text = readFileSync(config.file, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unreadable';
    throw new UserError(`cannot read the seed file (${code})`, { file: config.file, fix: 'check the path given to --seed-file' });
  }
  const groups = parseSeedFile(text, config.file, config.meta ?? []);
  if (groups.length === 0) {
    throw new UserError('the seed file lists no URLs', { file: config.file, fix: 'add one URL a line' });
  }
  // By stem: the store keeps the first spelling of a word, which may differ from the file's ("Storms", "storm").
  const stemKey = (words: readonly string[]) => metaSetKey(normalizeMetaSet(words).map((w) => stem(w.toLowerCase())));
  const byKey = new Map(groups.map((g) => [stemKey(g.words), g]));

  return {
    name: NAME,
    ownQueries: () => groups.map((g) => ({ words: g.words })),
    async search(query: SearchQuery, opts: SearchOptions): Promise<SearchResult[]> {
      const group = byKey.get(stemKey(query.asked ?? query.words));
      return (group?.urls ?? []).slice(0, opts.count).map((url, i) => ({ url, title: '', snippet: '', rank: i + 1 }));
    },
  };
}
