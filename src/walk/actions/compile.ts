import { checkAction } from '../activity/actions-spec.js';
import { ActivityError } from '../activity/errors.js';
import type { ActionSpec, Value } from '../activity/spec.js';
import type { RuntimeAction } from './action.js';
import { htmlEnumeratingItem, htmlForceOutput, htmlShowUriOverview, htmlTrace, htmlWithEnumeration, htmlWithParagraph, htmlWriteHeaders } from './html.js';
import { walkInferiors, walkSortedInferiors } from './inferiors.js';
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

function compileAction(a: ActionSpec, file?: string): RuntimeAction {
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
        return walkSortedInferiors(text(a.args[0]));
      case 'salton-check-uri':
        return saltonCheckUri({ words: texts(a.args[0]), weights: numbers(a.args[1]) }, a.args[2]?.kind === 'number' ? a.args[2].value : 0);
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
