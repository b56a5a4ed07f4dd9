import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { printable, UserError } from '../../errors.js';
import { findActivity } from '../../walk/activity/library.js';
import { specActivity } from '../../walk/actions/activity.js';
import { reportDocument } from '../../walk/actions/html.js';
import { resolved, withOptions } from '../options.js';
import { prepareOuts, writeWhole } from '../out-file.js';
import { handler } from '../run.js';
import { safetyConstraints, walkCommand, walkExit, walkRunOptionsFrom, WALK_OPTIONS } from '../walk-run.js';

/** `anwc walk`: any W4 activity, on the engine the harvest uses. */
export const walkCommandModule: CommandModule = {
  ...ABOUT.walk,
  builder: (y) =>
    withOptions(y.positional('urls', { type: 'string', array: true, describe: 'Root URLs' }), 'activity', 'report', ...WALK_OPTIONS)
      .demandOption('activity')
      .example('anwc walk https://example.org/ --activity trace-walk', 'the W4 paper\'s Definition 3: trace pages and headers two links deep')
      .example('anwc walk https://example.org/ --activity my-walk.w4 --report walk.html', 'an activity of your own, with its HTML report')
      .example("anwc walk http://alpha.test/ --activity trace-walk --resolve '*.test:127.0.0.1' --delay 0", 'a local test web')
      .epilogue(
        'Text actions (trace, trace-headers, salton-check-uri) print to stdout; html-* actions build one HTML report.\n' +
          'With --state sqlite:FILE the walk can be resumed and anwc why --db sqlite:FILE explains each URL.',
      ),
  handler: handler(async (argv: Record<string, unknown>) => {
    if (argv.activity === 'harvest') {
      throw new UserError('the harvest walks the seeded frontier of --db, not URLs given here', {
        value: 'harvest',
        fix: 'run anwc harvest (after anwc import and anwc seed), or give another activity',
      });
    }
    const spec = findActivity(String(argv.activity));
    const given = resolved(argv, 'report').value as string | undefined;
    if (given) prepareOuts([given], '--report');
    const opts = walkRunOptionsFrom(argv, spec.strategy);
    if (spec.operator && !opts.fetcher.from) opts.fetcher.from = spec.operator;
    const fragments: string[] = [];
    const activity = specActivity(spec, { text: (l) => process.stdout.write(`${printable(l)}\n`), html: (f) => fragments.push(f) }, safetyConstraints(argv, opts));
    const ran = await walkCommand(argv, activity, (argv.urls as string[]) ?? [], opts, 'walk');
    const { report, store, roots } = ran;
    try {
      if (fragments.length > 0 || given) {
        const file = given ?? reportFile(spec.name);
        const facts: [string, string][] = [
          ['activity', spec.name],
          ['roots', roots.join(' ')],
          ['made', new Date().toISOString()],
          ['pages walked', String(report.stats.pagesDone)],
          ['stopped', report.stop],
        ];
        writeWhole(file, reportDocument(`anwc walk: ${spec.name}`, facts, fragments), '--report');
        process.stderr.write(`anwc: HTML report written to ${file}\n`);
      }
    } finally {
      await store.close();
    }
    return walkExit(ran);
  }),
};

/**
 * The report's file when --report names none: the activity's name made a file name in the working
 * folder. The name comes from the activity file, so it is data, never a path (`../../x`, `/etc/x`).
 */
export function reportFile(activityName: string): string {
  const safe = activityName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return `${safe || 'activity'}-report.html`;
}
