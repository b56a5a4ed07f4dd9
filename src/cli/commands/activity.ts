import type { Argv, CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { relative } from 'node:path';
import { HARVEST_DEFAULTS } from '../../harvest/defaults.js';
import { harvestConstraints } from '../../harvest/harvest.js';
import { packageRoot } from '../../package-root.js';
import { compileConstraints } from '../../walk/activity/compile.js';
import { builtinActivities, findActivity, loadActivityFile } from '../../walk/activity/library.js';
import { serializeSexpr, toJson } from '../../walk/activity/print.js';
import type { Activity } from '../../walk/activity/spec.js';
import { ConstraintSet } from '../../walk/constraints/constraint.js';
import { handler } from '../run.js';

const HARVEST_DOC = 'The ANWC harvest: the roulette walk from the seeded frontier with the narrative action (anwc harvest).';

/** The harvest's own constraints at their defaults, as `anwc harvest` resolves them with no flags. */
function harvestOrder(): string[] {
  return new ConstraintSet(harvestConstraints({ maxDepth: HARVEST_DEFAULTS.maxDepth, hosts: [], sameHost: false, fetcher: {} })).describe();
}

const resolvedOrder = (a: Activity): string[] => new ConstraintSet(compileConstraints(a.constraints, a.file)).describe();
const where = (a: Activity) => (a.file ? relative(packageRoot(), a.file) : '');

const listCommand: CommandModule = {
  command: 'list',
  describe: 'List the built-in activities: the samples shipped in activities/ and the harvest',
  builder: (y: Argv) => y.example('anwc activity list', 'one line each: name, file, documentation'),
  handler: handler(() => {
    const rows = builtinActivities().map((a) => [a.name, where(a), a.documentation ?? '']);
    rows.push(['harvest', '(built in)', `${HARVEST_DOC} Constraints: ${harvestOrder().join('; ')}`]);
    const w0 = Math.max(...rows.map((r) => r[0]!.length));
    const w1 = Math.max(...rows.map((r) => r[1]!.length));
    process.stdout.write(rows.map(([n, f, d]) => `${n!.padEnd(w0)}  ${f!.padEnd(w1)}  ${d}`.trimEnd()).join('\n') + '\n');
  }),
};

const showCommand: CommandModule = {
  command: 'show <activity>',
  describe: 'Print an activity (a built-in name or a file) in canonical form',
  builder: (y: Argv) =>
    y
      .positional('activity', { type: 'string', describe: 'A built-in activity name or an activity file' })
      .option('format', { choices: ['sexpr', 'json'] as const, default: 'sexpr', describe: 'The form to print' })
      .example('anwc activity show trace-walk', 'the paper\'s (define-activity …) form')
      .example('anwc activity show trace-walk --format json', 'the same activity as JSON'),
  handler: handler((argv: { activity: string; format: 'sexpr' | 'json' }) => {
    if (argv.activity === 'harvest') {
      const order = harvestOrder();
      const out = argv.format === 'json'
        ? `${JSON.stringify({ name: 'harvest', documentation: HARVEST_DOC, builtIn: true, constraintOrder: order }, null, 2)}\n`
        : `; ${HARVEST_DOC}\n; built in: its constraints come from the harvest flags; at their defaults:\n${order.map((l) => `;   ${l}`).join('\n')}\n`;
      process.stdout.write(out);
      return;
    }
    const a = findActivity(argv.activity);
    process.stdout.write(argv.format === 'json' ? toJson(a) : serializeSexpr(a));
  }),
};

const checkCommand: CommandModule = {
  command: 'check <file>',
  describe: 'Check an activity file (s-expression or .json); print the resolved constraint order, or file:line:col errors',
  builder: (y: Argv) =>
    y
      .positional('file', { type: 'string', describe: 'The activity file' })
      .example('anwc activity check activities/locate.w4', 'the constraints cheapest class first, then the actions'),
  handler: handler((argv: { file: string }) => {
    const a = loadActivityFile(argv.file);
    const lines = [`${argv.file}: ok, activity ${a.name}${a.strategy ? ` (strategy ${a.strategy})` : ''}`, 'constraints, in the order they run:'];
    lines.push(...resolvedOrder(a).map((l) => `  ${l}`));
    lines.push('actions:', ...a.actions.map((x) => `  ${x.name}${x.inner ? ` surrounding ${x.inner.map((i) => i.name).join(', ')}` : ''}`));
    process.stdout.write(`${lines.join('\n')}\n`);
  }),
};

export const activityCommand: CommandModule = {
  ...ABOUT.activity,
  builder: (y: Argv) => y.command(listCommand).command(showCommand).command(checkCommand).demandCommand(1, 'Name an activity command: list, show or check'),
  handler: () => {},
};
