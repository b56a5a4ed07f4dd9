import { compileConstraints } from '../activity/compile.js';
import type { Activity as ActivitySpec } from '../activity/spec.js';
import type { Constraint } from '../constraints/constraint.js';
import type { Activity } from '../walk.js';
import { emptyEffects, pageView, type Located, type Report, type RuntimeAction } from './action.js';
import { compileActions } from './compile.js';

/** An activity file made runnable: its constraints compiled, its actions run in order on each page. */
export interface SpecActivity extends Activity {
  /** Documents the locating actions picked during this run, best first. */
  located(): Located[];
}

const SORTING = /^walk-(?:salton-)?sorted-inferiors/;

/**
 * `extra` are constraints the command adds for safety (http only, URL length) or from its flags
 * (--hosts); they join the activity's own and are sorted with them by cost once.
 */
export function specActivity(spec: ActivitySpec, report: Report, extra: Constraint[] = []): SpecActivity {
  const constraints = [...compileConstraints(spec.constraints, spec.file), ...extra];
  return actionsActivity(spec.name, constraints, compileActions(spec.actions, spec.file), report);
}

/** An activity of runtime actions, run in order on each page (what a command like archive builds in code). */
export function actionsActivity(name: string, constraints: Constraint[], actions: RuntimeAction[], report: Report): SpecActivity {
  const located: Located[] = [];
  return {
    name,
    constraints,
    linkOrder: actions.some((a) => SORTING.test(a.name)) ? 'priority' : undefined,
    async act(page, link, { token }) {
      const view = pageView(page, link, token, report);
      const out = emptyEffects();
      for (const a of actions) await a.run(view, out);
      located.push(...out.located);
      const score = typeof out.notes.score === 'number' ? { score: out.notes.score } : {};
      const title = view.isHtml() && view.title() ? { title: view.title() } : {};
      const truncated = page.truncated || view.cut() ? { truncated: true } : {};
      return { outcome: { kind: 'walked', status: page.status, links: out.follow.length, ...score, ...title, ...truncated }, nodes: out.nodes, links: out.follow };
    },
    located: () => [...located].sort((a, b) => b.score - a.score || a.url.localeCompare(b.url)),
  };
}
