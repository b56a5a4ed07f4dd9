import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { onStopSignals, type Stoppable } from '../../src/cli/signals.js';

/** A walker as the signals see it: what it was asked to do, in order. */
function walker(): Stoppable & { asked: string[] } {
  const asked: string[] = [];
  return { asked, stop: (reason) => asked.push(`stop ${reason}`), abortNow: () => asked.push('abort') };
}

test('Ctrl-C before the walk has started is kept: the walker stops as soon as it is attached', () => {
  const said = new PassThrough();
  const signals = onStopSignals(said);
  try {
    process.emit('SIGINT');
    const w = walker();
    signals.attach(w);
    assert.deepEqual(w.asked, ['stop interrupted']);
    assert.match(String(said.read()), /finishing the pages in flight/);
  } finally {
    signals.undo();
  }
});

test('Ctrl-C or SIGTERM during the walk stops the attached walker; none before, none after undo', () => {
  const before = ['SIGINT', 'SIGTERM'].map((s) => process.listenerCount(s));
  const signals = onStopSignals(new PassThrough());
  const w = walker();
  try {
    signals.attach(w);
    assert.deepEqual(w.asked, [], 'attached with no signal yet: walks on');
    process.emit('SIGTERM');
    assert.deepEqual(w.asked, ['stop interrupted']);
  } finally {
    signals.undo();
  }
  assert.deepEqual(['SIGINT', 'SIGTERM'].map((s) => process.listenerCount(s)), before, 'undo takes its listeners back');
});
