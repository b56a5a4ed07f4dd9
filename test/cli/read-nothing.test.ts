import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNothing } from '../../src/cli/commands/harvest.js';

/**
 * When `anwc harvest` says it read nothing (exit 1): it read no page, and it took links or ended
 * with links it could not take. A process that found its peers had done or held every link did
 * its part; so did a run of workers of which one read what the others could not.
 */

test('a run that took links and read none read nothing; one that read a page did not', () => {
  assert.equal(readNothing([{ pagesFetched: 0, pagesDone: 2, retries: 0, stop: 'frontier-empty' }]), true, 'both refused');
  assert.equal(readNothing([{ pagesFetched: 0, pagesDone: 0, retries: 2, stop: 'frontier-empty' }]), true, 'both put back');
  assert.equal(readNothing([{ pagesFetched: 1, pagesDone: 2, retries: 0, stop: 'frontier-empty' }]), false);
});

test('a run that took no link read nothing only when links were left it could not take', () => {
  assert.equal(readNothing([{ pagesFetched: 0, pagesDone: 0, retries: 0, stop: 'frontier-empty' }]), false, 'its peers had them all');
  assert.equal(readNothing([{ pagesFetched: 0, pagesDone: 0, retries: 0, stop: 'max-time' }]), true, 'it waited for links not yet due');
});

test('workers are judged together', () => {
  const idle = { pagesFetched: 0, pagesDone: 0, retries: 0, stop: 'frontier-empty' };
  assert.equal(readNothing([idle, { pagesFetched: 3, pagesDone: 3, retries: 0, stop: 'frontier-empty' }]), false);
  assert.equal(readNothing([idle, { pagesFetched: 0, pagesDone: 1, retries: 0, stop: 'frontier-empty' }]), true);
  assert.equal(readNothing([idle, idle]), false);
});
