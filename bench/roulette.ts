import seedrandom from 'seedrandom';
import { pathToFileURL } from 'node:url';
import { RouletteWheel } from '../src/walk/strategies/roulette.js';
import { count } from './knobs.js';

/**
 * Draws per second of the Fenwick roulette wheel at 1,000,000 domains, beside the thesis's
 * linear-scan wheel (sum the scores, walk until the random number falls in a slice) in the same run.
 * Each draw is followed by a reward, as in a crawl, so updates are measured too.
 */
class LinearWheel {
  readonly scores: Float64Array;
  constructor(n: number) {
    this.scores = new Float64Array(n).fill(1);
  }
  draw(random: () => number): number {
    let total = 0;
    for (let i = 0; i < this.scores.length; i++) total += this.scores[i]!;
    let r = random() * total;
    for (let i = 0; i < this.scores.length; i++) {
      r -= this.scores[i]!;
      if (r < 0) return i;
    }
    return this.scores.length - 1;
  }
  reward(i: number): void {
    this.scores[i]! += 1;
  }
}

function rate(fn: () => void, minMs: number, maxOps: number): { ops: number; perSec: number } {
  const start = process.hrtime.bigint();
  let ops = 0;
  let elapsed = 0;
  while (ops < maxOps) {
    fn();
    ops++;
    if ((ops & 63) === 0 || ops < 64) {
      elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (elapsed >= minMs) break;
    }
  }
  elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  return { ops, perSec: (ops / elapsed) * 1000 };
}

export function main(domains = count('BENCH_DOMAINS', 1_000_000)): string {
  const rng = seedrandom('bench-roulette');
  const wheel = new RouletteWheel<number>();
  const buildStart = Date.now();
  for (let d = 0; d < domains; d++) {
    wheel.upsert(d, 1);
    wheel.setEligible(d, true);
  }
  const buildMs = Date.now() - buildStart;
  const linear = new LinearWheel(domains);

  const fen = rate(() => wheel.reward(wheel.draw(rng)!, 1), 1000, 5_000_000);
  const lin = rate(() => linear.reward(linear.draw(rng)), 1000, 2_000);
  const lines = [
    `## roulette wheel at ${domains.toLocaleString('en')} domains (draw + reward)`,
    '',
    '| wheel | draws | draws/s | ratio |',
    '| --- | ---: | ---: | ---: |',
    `| linear scan (baseline) | ${lin.ops} | ${lin.perSec.toFixed(1)} | 1.0 |`,
    `| Fenwick tree | ${fen.ops} | ${fen.perSec.toFixed(0)} | ${(fen.perSec / lin.perSec).toFixed(0)}x |`,
    '',
    `building the Fenwick wheel: ${buildMs} ms`,
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(main());
