/** A deep copy without `pos` keys, so documents compare by content, not by layout. */
export function withoutPositions<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'pos' ? undefined : v))) as T;
}
