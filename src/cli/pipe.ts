import { EXIT } from './exit.js';

/**
 * `anwc keywords | head`: a reader that stops early is not an error; stop quietly. `orphaned`:
 * whether nobody reads any more (the parent of a worker died), when the run goes on to save
 * instead of ending at the first write.
 */
export function quietOnBrokenPipe(stream: NodeJS.WriteStream, orphaned: () => boolean = () => false): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' && orphaned()) return;
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.OK);
    throw err;
  });
}
