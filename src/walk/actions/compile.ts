import { canonicalAction, checkAction, searchOrdering, SORT_CALL } from '../activity/actions-spec.js';
import { ActivityError } from '../activity/errors.js';
import { compileLispFunction, lispForm, LispUrl } from '../activity/lisp.js';
import { printValue } from '../activity/sexpr.js';
import type { ActionSpec, Value } from '../activity/spec.js';
import type { RuntimeAction } from './action.js';
import { htmlEnumeratingItem, htmlForceOutput, htmlShowUriOverview, htmlTrace, htmlWithEnumeration, htmlWithParagraph, htmlWriteHeaders } from './html.js';
import { walkInferiors, walkSortedInferiors, type Ordering } from './inferiors.js';
import { saltonCheckUri, walkSaltonSortedInferiors } from './salton.js';
import { trace, traceHeaders } from './trace.js';

/**
 * An activity's action specs (checked by the parser) made into the actions that run on each page.
 * A stream argument names where text goes; the walk has one report, so streams are accepted and
 * read as "the report".
 */
export function compileActions(specs: readonly ActionSpec[], file?: string): RuntimeAction[] {
  return specs.map((a) => compileAction(a, file));
}

const text = (v: Value | undefined): string => (v && (v.kind === 'string' || v.kind === 'symbol') ? v.value.replace(/^:/, '') : '');
const texts = (v: Value | undefined): string[] => (v?.kind === 'list' ? v.items.map(text) : []);
const numbers = (v: Value | undefined): number[] => (v?.kind === 'list' ? v.items.map((x) => (x.kind === 'number' ? x.value : 1)) : []);
const isStream = (v: Value | undefined) => v !== undefined && (v.kind === 'symbol' && /^\*.*\*$/.test(v.value));

/** walk-sorted-inferiors' PREDICATE: a Lisp predicate over two links, (:search "word" …), or an ordering's name. */
function ordering(v: Value, file?: string): Ordering {
  const fn = lispForm(v, file);
  if (fn) {
    const before = compileLispFunction(fn, SORT_CALL, file);
    const link = (l: { url: string; anchorText: string }) => new LispUrl(new URL(l.url), l.anchorText);
    return { before: (a, b) => before([link(a), link(b)]), shown: printValue(fn) };
  }
  const words = searchOrdering(v);
  return words ? { search: words } : { name: text(v) };
}

function compileAction(spec: ActionSpec, file?: string): RuntimeAction {
  const a = canonicalAction(spec, file);
  checkAction(a, file);
  const inner = () => compileActions(a.inner ?? [], file);
  try {
    switch (a.name) {
      case 'trace':
        return trace();
      case 'trace-headers':
        return traceHeaders();
      case 'walk-inferiors':
        return walkInferiors();
      case 'walk-sorted-inferiors':
        return walkSortedInferiors(ordering(a.args[0]!, file));
      case 'salton-check-uri':
        return saltonCheckUri({ words: texts(a.args[1]), weights: numbers(a.args[2]) }, a.args[0]?.kind === 'number' ? a.args[0].value : 0);
      case 'walk-salton-sorted-inferiors':
        return walkSaltonSortedInferiors({ words: texts(a.args[0]), weights: numbers(a.args[1]) });
      case 'html-trace':
        return htmlTrace();
      case 'html-show-uri-overview':
        return htmlShowUriOverview();
      case 'html-write-headers':
        return htmlWriteHeaders();
      case 'html-force-output':
        return htmlForceOutput();
      case 'html-with-enumeration': {
        const style = a.args.find((v) => !isStream(v));
        return htmlWithEnumeration(style ? text(style) : 'itemize', inner());
      }
      case 'html-enumerating-item':
        return htmlEnumeratingItem(inner());
      case 'html-with-paragraph':
        return htmlWithParagraph(inner());
    }
  } catch (err) {
    if (err instanceof RangeError) throw new ActivityError('bad-argument', err.message, { file, at: a.at }, `in ${a.name}`);
    throw err;
  }
  throw new ActivityError('unknown-action', `no implementation of action ${a.name}`, { file, at: a.at }, 'use one of anwc activity list');
}
