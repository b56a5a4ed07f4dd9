/**
 * A Fenwick (binary indexed) tree of non-negative weights, so that the roulette wheel can update a
 * slice and draw a slot in O(log n) instead of rescanning every domain (DESIGN.md, thesis ch. 4).
 * Slots are 0-based; the tree grows by doubling when a slot past the end is written.
 */
export class FenwickWheel {
  private tree: Float64Array;
  private weights: Float64Array;
  private size: number;
  private sum = 0;

  constructor(capacity = 16) {
    this.size = Math.max(1, capacity);
    this.tree = new Float64Array(this.size + 1);
    this.weights = new Float64Array(this.size);
  }

  get capacity(): number {
    return this.size;
  }

  /** The sum of all weights. */
  total(): number {
    return this.sum;
  }

  weight(slot: number): number {
    return slot < this.size ? this.weights[slot]! : 0;
  }

  set(slot: number, weight: number): void {
    if (!(weight >= 0) || !Number.isFinite(weight)) {
      throw new RangeError(`wheel weight must be a finite number >= 0, got ${weight}`);
    }
    if (slot >= this.size) this.grow(slot + 1);
    const delta = weight - this.weights[slot]!;
    if (delta === 0) return;
    this.weights[slot] = weight;
    this.sum += delta;
    for (let i = slot + 1; i <= this.size; i += i & -i) this.tree[i]! += delta;
    // Float sums drift after millions of +/- updates; an exact zero matters for "nothing eligible".
    if (this.sum < 1e-9) this.sum = 0;
  }

  /**
   * The slot whose slice holds `r`, for 0 <= r < total(): the smallest slot whose running sum
   * exceeds r. Binary lifting walks the tree top-down, so this is O(log n) with no prefix sums.
   */
  find(r: number): number {
    let pos = 0;
    let rest = r;
    for (let step = highestPowerOfTwo(this.size); step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.size && this.tree[next]! <= rest) {
        pos = next;
        rest -= this.tree[next]!;
      }
    }
    // Rounding can push `pos` onto a zero-weight slot at the end; step back to a live one.
    let slot = Math.min(pos, this.size - 1);
    while (slot > 0 && this.weights[slot] === 0) slot--;
    return slot;
  }

  /** Draws a slot with probability weight / total, or -1 when every weight is zero. */
  draw(random: () => number): number {
    if (this.sum <= 0) return -1;
    return this.find(random() * this.sum);
  }

  private grow(minSize: number): void {
    let size = this.size;
    while (size < minSize) size *= 2;
    const old = this.weights;
    this.size = size;
    this.tree = new Float64Array(size + 1);
    this.weights = new Float64Array(size);
    this.sum = 0;
    for (let i = 0; i < old.length; i++) if (old[i]! > 0) this.set(i, old[i]!);
  }
}

function highestPowerOfTwo(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}
