import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The benches' knobs, read from the environment (BENCH_CRAWL_PAGES=200 …): a value that is not a
 * whole number in range ends the bench with one line and exit code 2, as a bad flag ends a command,
 * where Number() would have run it on NaN or 0 and failed far from the cause, or printed nonsense.
 */

export function count(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  return raw === undefined || raw.trim() === '' ? fallback : parse(name, raw, raw, min);
}

/** A comma-separated list of counts (BENCH_CRAWL_SWEEP=1000,10000); empty for none. */
export function counts(name: string, fallback: string, min = 1): number[] {
  const raw = process.env[name] ?? fallback;
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '').map((s) => parse(name, raw, s, min));
}

/**
 * An anwc checkout named by a knob (BENCH_CRAWL_BASE=../anwc-before), built: its CLI's path, or
 * undefined when the knob is not set.
 */
export function builtCheckout(name: string): string | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const cli = resolve(raw, 'dist', 'src', 'cli', 'main.js');
  if (existsSync(cli)) return cli;
  process.stderr.write(`bench: ${name} names no built anwc (no ${cli}); give a checkout where npm ci and npm run build were run\n`);
  process.exit(2);
}

function parse(name: string, raw: string, item: string, min: number): number {
  const n = /^\d+$/.test(item) ? Number(item) : NaN;
  if (Number.isSafeInteger(n) && n >= min) return n;
  process.stderr.write(`bench: ${name} is not valid (got ${JSON.stringify(raw)}); give a whole number of ${min} or more\n`);
  process.exit(2);
}
