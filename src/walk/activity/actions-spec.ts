/**
 * The action vocabulary of the W4 paper's appendix B: names, kinds and argument shapes, so that an
 * activity file is checked before a walk starts. What each action does lives with the engine.
 * Primary actions act on a URI; encapsulating actions surround the actions written after their
 * arguments, e.g. `(html-with-enumeration *standard-output* :itemize ((html-trace)))`.
 */
import { ActivityError, suggestion } from './errors.js';
import { compileLispFunction, lispForm, type Signature } from './lisp.js';
import { printValue } from './sexpr.js';
import type { ActionSpec, Value } from './spec.js';

export type ActionArgKind = 'stream' | 'style' | 'words' | 'weights' | 'ordering' | 'threshold';

export interface ActionArg {
  name: string;
  kind: ActionArgKind;
  /** Streams default to the activity's report stream. */
  optional?: boolean;
}

export interface ActionType {
  name: string;
  kind: 'primary' | 'encapsulating';
  args: readonly ActionArg[];
  doc: string;
}

const stream: ActionArg = { name: 'stream', kind: 'stream', optional: true };
export const ENUMERATION_STYLES = ['enumerate', 'itemize', 'plain', 'menu', 'directory', 'definition'] as const;

export const ACTION_TYPES: readonly ActionType[] = [
  { name: 'html-enumerating-item', kind: 'encapsulating', args: [stream], doc: 'wraps a single enumeration of an item on STREAM' },
  { name: 'html-force-output', kind: 'primary', args: [stream], doc: 'forces output on an HTML stream' },
  { name: 'html-show-uri-overview', kind: 'primary', args: [stream], doc: 'overviews the URI in HTML on STREAM' },
  { name: 'html-trace', kind: 'primary', args: [stream], doc: 'traces the activity of the walker and outputs HTML on STREAM' },
  { name: 'html-with-enumeration', kind: 'encapsulating', args: [stream, { name: 'style', kind: 'style', optional: true }], doc: 'wraps the enumeration of items on STREAM according to STYLE' },
  { name: 'html-with-paragraph', kind: 'encapsulating', args: [stream], doc: 'delimits the output of the actions it surrounds as a paragraph' },
  { name: 'html-write-headers', kind: 'primary', args: [stream], doc: 'writes the headers formatted verbatim' },
  // The paper's lambda list; canonicalAction also takes anwc's earlier order, (WORDS WEIGHTS THRESHOLD).
  { name: 'salton-check-uri', kind: 'primary', args: [{ name: 'threshold', kind: 'threshold' }, { name: 'words', kind: 'words' }, { name: 'weights', kind: 'weights' }, stream], doc: 'reports the URI when its Salton score for WORDS and WEIGHTS is at least THRESHOLD' },
  { name: 'trace', kind: 'primary', args: [], doc: 'traces the activity of the walker' },
  { name: 'trace-headers', kind: 'primary', args: [], doc: 'traces the headers of the URIs the walker accesses' },
  { name: 'walk-inferiors', kind: 'primary', args: [], doc: 'walks the inferiors (links) of the URI' },
  { name: 'walk-salton-sorted-inferiors', kind: 'primary', args: [{ name: 'words', kind: 'words' }, { name: 'weights', kind: 'weights' }], doc: 'walks the inferiors best first by their Salton score' },
  { name: 'walk-sorted-inferiors', kind: 'primary', args: [{ name: 'predicate', kind: 'ordering' }], doc: 'walks the inferiors in the order PREDICATE gives: an ordering\'s name, (:search "word" …) or #\'(lambda (a b) …)' },
];

export const ACTION_NAMES: readonly string[] = ACTION_TYPES.map((a) => a.name);

export function actionType(name: string): ActionType | undefined {
  return ACTION_TYPES.find((a) => a.name === name);
}

/** How walk-sorted-inferiors calls a Lisp predicate: as stable-sort does, with two links; true puts A first. */
export const SORT_CALL: Signature = { caller: 'walk-sorted-inferiors', params: [{ name: 'a', kind: 'url' }, { name: 'b', kind: 'url' }] };

const isSearchHead = (v: Value | undefined) => (v?.kind === 'symbol' || v?.kind === 'string') && v.value.toLowerCase() === ':search';

/** The words of a `(:search "word" …)` ordering, or undefined when `v` is not one. */
export function searchOrdering(v: Value): string[] | undefined {
  if (v.kind !== 'list' || !isSearchHead(v.items[0])) return undefined;
  return v.items.slice(1).map((w) => (w.kind === 'string' || w.kind === 'symbol' ? w.value : ''));
}

const bad = (file: string | undefined, v: Value, what: string): never => {
  throw new ActivityError('bad-argument', `expected ${what}`, { file, at: v.at }, `got ${printValue(v)}`);
};
const isText = (v: Value) => v.kind === 'string' || v.kind === 'symbol';

function checkArg(arg: ActionArg, v: Value, file?: string): void {
  switch (arg.kind) {
    case 'stream':
      if (!isText(v)) bad(file, v, `${arg.name}: a symbol or a "string"`);
      return;
    case 'ordering': {
      const fn = lispForm(v, file);
      if (fn) {
        compileLispFunction(fn, SORT_CALL, file);
        return;
      }
      const words = searchOrdering(v);
      if (words && (words.length === 0 || words.some((w) => w === '' || w.startsWith(':')))) bad(file, v, '(:search "word" …) with one or more words');
      if (!words && !isText(v)) bad(file, v, `${arg.name}: an ordering's name, (:search "word" …) or #'(lambda (a b) …)`);
      return;
    }
    case 'style': {
      const s = v.kind === 'symbol' || v.kind === 'string' ? v.value.replace(/^:/, '') : '';
      if (!(ENUMERATION_STYLES as readonly string[]).includes(s)) bad(file, v, `style: one of :${ENUMERATION_STYLES.join(' :')}`);
      return;
    }
    case 'words':
      if (v.kind !== 'list' || v.items.length === 0 || !v.items.every(isText)) bad(file, v, 'words: a list of words, e.g. ("lisp" "web")');
      return;
    case 'weights':
      if (v.kind !== 'list' || !v.items.every((x) => x.kind === 'number')) bad(file, v, 'weights: a list of numbers, e.g. (0.9 0.5)');
      return;
    case 'threshold':
      if (v.kind !== 'number') bad(file, v, 'threshold: a number');
  }
}

/**
 * The action in canonical form: salton-check-uri in the paper's order (anwc first took THRESHOLD
 * last, and a list first tells that order apart), a Lisp sort predicate that JSON wrote as a
 * string as the form it holds, and the :search keyword as a symbol.
 */
export function canonicalAction(a: ActionSpec, file?: string): ActionSpec {
  let args = a.args;
  if (a.name === 'salton-check-uri' && args[0]?.kind === 'list' && args.length >= 3) args = [args[2]!, args[0], args[1]!, ...args.slice(3)];
  if (a.name === 'walk-sorted-inferiors' && args[0]) {
    const v = args[0];
    const head = v.kind === 'list' ? v.items[0] : undefined;
    if (v.kind === 'string') args = [lispForm(v, file) ?? v, ...args.slice(1)];
    else if (v.kind === 'list' && head?.kind === 'string' && isSearchHead(head)) args = [{ ...v, items: [{ kind: 'symbol', value: ':search', at: head.at }, ...v.items.slice(1)] }, ...args.slice(1)];
  }
  const inner = a.inner?.map((x) => canonicalAction(x, file));
  return { ...a, args, ...(inner ? { inner } : {}) };
}

/** Checks an action's name, the count and shape of its arguments, and its inner actions. */
export function checkAction(a: ActionSpec, file?: string): void {
  const type = actionType(a.name);
  if (!type) throw new ActivityError('unknown-action', `unknown action ${a.name}`, { file, at: a.at }, suggestion(a.name, ACTION_NAMES));
  const required = type.args.filter((x) => !x.optional).length;
  if (a.args.length < required || a.args.length > type.args.length) {
    const shape = type.args.map((x) => (x.optional ? `[${x.name}]` : x.name)).join(' ');
    throw new ActivityError('bad-argument', `${a.name} takes ${shape || 'no arguments'}`, { file, at: a.at }, `got ${a.args.length}`);
  }
  a.args.forEach((v, i) => checkArg(type.args[i]!, v, file));
  const words = a.args.find((_, i) => type.args[i]!.kind === 'words');
  const weights = a.args.find((_, i) => type.args[i]!.kind === 'weights');
  if (words?.kind === 'list' && weights?.kind === 'list' && words.items.length !== weights.items.length) {
    bad(file, weights, `one weight per word (${words.items.length})`);
  }
  if (a.inner && type.kind !== 'encapsulating') {
    throw new ActivityError('bad-argument', `${a.name} is a primary action and surrounds no actions`, { file, at: a.at }, 'move the inner actions out');
  }
  for (const x of a.inner ?? []) checkAction(x, file);
}
