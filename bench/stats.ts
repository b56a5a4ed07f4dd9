/** Summary statistics the benches print: means with their spread over seeds or rounds. */

export const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export const sd = (xs: readonly number[]) => (xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)));

/** Two-sided 97.5 % quantiles of Student's t for 1-30 degrees of freedom; the normal's beyond. */
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** Half the width of the 95 % confidence interval of the mean (Student's t); 0 for one value. */
export function ci95(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const t = T975[xs.length - 2] ?? 1.96;
  return (t * sd(xs)) / Math.sqrt(xs.length);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
