/**
 * Where a reader is in the evolving page, kept in the page's URL so that a swap is a link, the
 * browser's back button steps back, and the server holds no session: the node shown in each slot
 * of the story, the swaps made (slot and the node it replaced, newest last), and the seed of the
 * draws with the number of draws made so far (`?seed=` makes a walk through the story repeatable).
 */
export interface StoryState {
  ids: number[];
  history: { slot: number; replaced: number }[];
  seed: string | null;
  step: number;
}

/** Swaps remembered for "step back"; older ones are dropped so that the URL stays short. */
export const HISTORY_MAX = 50;

const ID_LIST = /^\d{1,15}(,\d{1,15})*$/;
const HISTORY = /^\d{1,6}\.\d{1,15}(~\d{1,6}\.\d{1,15})*$/;

/**
 * The state the query names, or the story as imported when the query names none or one that
 * does not fit it (another number of slots: the markup was re-imported since).
 */
export function parseStoryState(q: Record<string, string | undefined>, story: readonly number[]): StoryState {
  const seed = q.seed !== undefined && q.seed !== '' ? q.seed.slice(0, 64) : null;
  const step = /^\d{1,9}$/.test(q.step ?? '') ? Number(q.step) : 0;
  const ids = ID_LIST.test(q.n ?? '') ? q.n!.split(',').map(Number) : [];
  if (ids.length !== story.length) return { ids: [...story], history: [], seed, step };
  const history = HISTORY.test(q.h ?? '')
    ? q.h!.split('~').map((e) => e.split('.').map(Number) as [number, number])
      .filter(([slot]) => slot < ids.length).map(([slot, replaced]) => ({ slot, replaced }))
    : [];
  return { ids, history, seed, step };
}

export function storyQuery(s: StoryState, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  p.set('n', s.ids.join(','));
  if (s.history.length > 0) p.set('h', s.history.map((e) => `${e.slot}.${e.replaced}`).join('~'));
  if (s.seed !== null) p.set('seed', s.seed);
  if (s.step > 0) p.set('step', String(s.step));
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  return p.toString();
}

/** The state after the node in `slot` became `id`. */
export function swapped(s: StoryState, slot: number, id: number): StoryState {
  const ids = [...s.ids];
  const replaced = ids[slot]!;
  ids[slot] = id;
  return { ...s, ids, history: [...s.history, { slot, replaced }].slice(-HISTORY_MAX), step: s.step + 1 };
}

/** The state before the last swap, or undefined when there was none. */
export function steppedBack(s: StoryState): StoryState | undefined {
  const last = s.history[s.history.length - 1];
  if (!last) return undefined;
  const ids = [...s.ids];
  ids[last.slot] = last.replaced;
  return { ...s, ids, history: s.history.slice(0, -1) };
}
