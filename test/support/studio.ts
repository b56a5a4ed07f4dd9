import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { anwc, startAnwc, type CliOptions, type CliResult } from './cli.js';

export interface Studio {
  /** The address anwc serve printed (with ?token= when it made one up). */
  printed: string;
  /** Its origin, e.g. http://127.0.0.1:40123 */
  origin: string;
  child: ChildProcess;
  /** Ctrl-C, then its end. */
  stop(): Promise<CliResult>;
}

/** Starts `anwc serve --port 0 …` and waits (bounded) for the address it prints. */
export async function startStudio(args: string[], opts: CliOptions = {}): Promise<Studio> {
  const { child, exited } = startAnwc(['serve', '--port', '0', ...args], opts);
  let out = '';
  const printed = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`anwc serve printed no address in 20 s: ${out}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /anwc studio on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    });
    void exited.then((r) => {
      clearTimeout(timer);
      fail(new Error(`anwc serve ended (${r.code}): ${r.stderr}`));
    });
  });
  return {
    printed,
    origin: new URL(printed).origin,
    child,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** A browser's cookie jar of one: the studio's cookie from a first GET. */
export async function studioCookie(origin: string): Promise<string> {
  const r = await fetch(`${origin}/story`);
  const cookie = r.headers.get('set-cookie');
  if (!cookie) throw new Error('the studio set no cookie');
  return cookie.split(';')[0]!;
}

export const SAMPLE = resolve('ane-markup', 'sample.ane');

/** What a hostile page or file would put in front of the author: script, an attribute breakout, a javascript: URL. */
export const HOSTILE = {
  text: 'The keeper wrote <script>window.__xss = 1</script> and "onmouseover="window.__xss=2" x=" about the lighthouse at night, as keepers do.',
  url: 'javascript:window.__xss=3//lighthouse',
  word: '<img src=x onerror="window.__xss=4">',
};

/** A database (SQLite in `dir` unless `db` names one) with a hostile crawler node about the lighthouse and a hostile meta word; with `sample`, the sample story imported first. */
export async function hostileDatabase(dir: string, o: { sample: boolean; db?: string }): Promise<{ db: string; hostileId: number }> {
  const db = o.db ?? `sqlite:${join(dir, 'studio.sqlite')}`;
  if (o.sample) {
    const imported = await anwc(['import', SAMPLE, '--db', db]);
    assert.equal(imported.code, 0, imported.stderr);
  }
  const store = await openStore(db);
  try {
    const [lighthouse] = await store.ensureMetaWords([{ word: 'lighthouse', stem: 'lighthous' }]);
    await store.ensureMetaWords([{ word: HOSTILE.word, stem: HOSTILE.word }]);
    await store.addLinks([{ url: HOSTILE.url, host: 'hostile.test', depth: 0 }]);
    const page = await store.completePage({
      linkId: (await store.linkByUrl(HOSTILE.url))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
      nodes: [{ text: HOSTILE.text, sentences: [HOSTILE.text], metaWordIds: [lighthouse!.id] }],
    });
    return { db, hostileId: page.nodeIds[0]! };
  } finally {
    await store.close();
  }
}
