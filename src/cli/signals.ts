import { EXIT } from './exit.js';

/** What Ctrl-C and SIGTERM stop: a walker or anything with its two ways to stop. */
export interface Stoppable {
  stop(reason: 'interrupted'): void;
  abortNow(): void;
}

/**
 * Ctrl-C (or SIGTERM, as a service manager sends it) once: finish the pages in flight, save,
 * stop. Twice: stop at once; leased links come back after their lease. Returns the undo.
 */
export function onStopSignals(target: () => Stoppable | undefined, stderr: NodeJS.WritableStream = process.stderr): () => void {
  let signals = 0;
  const onSignal = () => {
    signals++;
    if (signals === 1) {
      stderr.write('\nanwc: finishing the pages in flight, then saving; Ctrl-C again to stop at once\n');
      target()?.stop('interrupted');
    } else {
      stderr.write('anwc: stopped at once; pages in flight will be walked again after their lease expires\n');
      target()?.abortNow();
      process.exit(EXIT.INTERRUPTED);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
}
