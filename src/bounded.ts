/**
 * Trims a Set or Map kept for a long crawl to its last `max` entries, in insertion order: the
 * oldest goes first. A cache that re-inserts what it reads is trimmed least recently used.
 */
export function keepNewest(entries: Set<unknown> | Map<unknown, unknown>, max: number): void {
  while (entries.size > max) entries.delete(entries.keys().next().value);
}
