import { UserError } from '../errors.js';
import type { Store } from '../store/store.js';

/**
 * proportion_of_crawler_node (thesis 5.2): the share of picks that come from crawler nodes
 * rather than the author's. It lives in the store's settings so that the narrative engine and
 * every anwc process read one value.
 *
 * The default is 0.5: the thesis names the setting without a value, and an even mix lets an
 * experiment see both sources equally often until someone decides otherwise.
 */
export const PROPORTION_KEY = 'proportion_of_crawler_node';
export const DEFAULT_PROPORTION = 0.5;

export interface Proportion {
  value: number;
  source: 'setting' | 'default';
}

/** A proportion as a user types it: a number from 0 to 1 (a trailing % is read as a percent). */
export function parseProportion(text: string): number {
  const t = text.trim();
  const percent = t.endsWith('%');
  const body = percent ? t.slice(0, -1).trim() : t;
  const n = /^[+]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(body) ? Number(body) / (percent ? 100 : 1) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw new UserError('the proportion of crawler nodes must be a number from 0 to 1', {
      value: text, fix: 'e.g. anwc mix 0.3 (0: author nodes only, 1: crawler nodes only)',
    });
  }
  return n;
}

export async function getProportion(store: Store): Promise<Proportion> {
  const raw = await store.getSetting(PROPORTION_KEY);
  if (raw === undefined) return { value: DEFAULT_PROPORTION, source: 'default' };
  try {
    return { value: parseProportion(raw), source: 'setting' };
  } catch {
    throw new UserError(`the stored ${PROPORTION_KEY} is not a number from 0 to 1`, {
      value: raw, fix: 'set it again with anwc mix 0.5',
    });
  }
}

export async function setProportion(store: Store, value: number): Promise<void> {
  parseProportion(String(value));
  await store.setSetting(PROPORTION_KEY, String(value));
}
