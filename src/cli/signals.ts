import { EXIT } from './exit.js';

/** What Ctrl-C and SIGTERM stop: a walker or anything with its two ways to stop. */
export interface Stoppable {
  stop(reason: 'interrupted'): void;
  abortNow(): void;
}

/**
 * Ctrl-C (or SIGTERM, as a service manager sends it) once: finish the pages in flight, save,
 * stop. Twice: stop at once; leased links come back after their lease. A signal that comes
 * before the walk has started (the store opening, the crawler loading) is kept and stops the
 * walker as soon as it is attached: a user's Ctrl-C, or a parent's death, is never lost.
 */
export function onStopSignals(stderr: NodeJS.WritableStream = process.stderr): { attach(walker: Stoppable): void; undo(): void } {
  let signals = 0;
  let target: Stoppable | undefined;
  const onSignal = () => {
    signals++;
    if (signals === 1) {
      stderr.write('\nanwc: finishing the pages in flight, then saving; Ctrl-C again to stop at once\n');
      target?.stop('interrupted');
    } else {
      stderr.write('anwc: stopped at once; pages in flight will be walked again after their lease expires\n');
      target?.abortNow();
      process.exit(EXIT.INTERRUPTED);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    attach(walker) {
      target = walker;
      if (signals > 0) walker.stop('interrupted');
    },
    undo() {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}
