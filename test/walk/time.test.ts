import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpDateToUniversal, toSeconds, toUniversal, universalToMs } from '../../src/walk/constraints/time.js';

/**
 * What an activity file's times and ages mean (W4's universal time, ISO 8601 dates and
 * durations), and what it may not write: a value read wrongly here changes which pages a walk keeps
 * by their dates. Expected values are worked out beside the code, from Date.UTC and the 70 years
 * (17 of them leap) between 1900 and 1970.
 */

const universal = (...utc: [number, number, number, number?, number?, number?]) => Date.UTC(...utc) / 1000 + (70 * 365 + 17) * 86_400;

test('universal time: a number as written, an ISO date read as UTC unless it names its zone', () => {
  assert.equal(toUniversal(3029461200), 3029461200);
  assert.equal(toUniversal(' 3029461200 '), 3029461200);
  assert.equal(toUniversal('1996-01-01'), universal(1996, 0, 1));
  assert.equal(toUniversal(' 1996-01-01T12:30 '), universal(1996, 0, 1, 12, 30));
  assert.equal(toUniversal('1996-01-01 12:30:15'), universal(1996, 0, 1, 12, 30, 15));
  assert.equal(toUniversal('1996-01-01T12:30:15.9Z'), universal(1996, 0, 1, 12, 30, 15), 'whole seconds, rounded down');
  assert.equal(toUniversal('1996-01-01T12:30+02:00'), universal(1996, 0, 1, 10, 30));
  assert.equal(toUniversal('1996-01-01T12:30-0500'), universal(1996, 0, 1, 17, 30));
  assert.equal(toUniversal('1996-01-01T12:30:15.25Z'), universal(1996, 0, 1, 12, 30, 15));
  assert.equal(universalToMs(3029461200), Date.UTC(1996, 0, 1, 5));
});

test('universal time: a date without a zone is UTC whatever the machine\'s own zone', () => {
  const zone = process.env.TZ;
  process.env.TZ = 'America/New_York';
  try {
    assert.equal(new Date(2000, 0, 1).getTimezoneOffset(), 300, 'the zone took');
    assert.equal(toUniversal('1996-01-01T12:30'), universal(1996, 0, 1, 12, 30));
    assert.equal(toUniversal('1996-01-01'), universal(1996, 0, 1));
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
});

test('universal time: what is not a time is refused, not guessed', () => {
  for (const v of [Number.NaN, Number.POSITIVE_INFINITY, 'yesterday', '96-01-01', '1996-01-01T', '1996-13-45', 'x1996-01-01', '1996-01-01x', '1996-01-01T12', '12 3', '']) {
    assert.equal(toUniversal(v), undefined, String(v));
  }
});

test('an HTTP date header as universal time; none, or one that is not a date, is undefined', () => {
  assert.equal(httpDateToUniversal('Mon, 01 Jan 1996 05:00:00 GMT'), 3029461200, 'the paper\'s own example');
  assert.equal(httpDateToUniversal(undefined), undefined);
  assert.equal(httpDateToUniversal('not a date'), undefined);
});

test('durations: seconds as a number, or ISO 8601 weeks, days, hours, minutes and seconds', () => {
  assert.equal(toSeconds(0), 0);
  assert.equal(toSeconds(90), 90);
  assert.equal(toSeconds(' 90 '), 90);
  assert.equal(toSeconds('P1W2DT3H4M5S'), (((1 * 7 + 2) * 24 + 3) * 60 + 4) * 60 + 5);
  assert.equal(toSeconds('p30d'), 30 * 86_400);
  assert.equal(toSeconds(' P10W '), 10 * 7 * 86_400);
  assert.equal(toSeconds('PT100S'), 100);
  assert.equal(toSeconds('PT12M'), 12 * 60);
  assert.equal(toSeconds('PT12H'), 12 * 3600);
});

test('durations: what is not one is refused', () => {
  for (const v of [-5, Number.NaN, Number.POSITIVE_INFINITY, 'P', 'PT', 'P1DT', 'P1X', '1D', 'xP1D', 'P1Dx', 'P1.5D', '-5', '']) {
    assert.equal(toSeconds(v), undefined, String(v));
  }
});
