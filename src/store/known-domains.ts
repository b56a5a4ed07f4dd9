/** Hosts a store keeps the domain id of (about 100 bytes each). */
const KNOWN_DOMAINS_MAX = 100_000;

/**
 * The domain ids by host a store has seen, for the life of its process. A domain row is never
 * deleted, so an id once read stays its host's, and the frontier's writes of a page need not look
 * it up again (on SQLite, an INSERT OR IGNORE and a SELECT a host a page). A transaction that was
 * taken back may have made domains whose ids are no one's: the store clears the ids then.
 */
export class KnownDomains {
  private readonly ids = new Map<string, number>();

  get(host: string): number | undefined {
    return this.ids.get(host);
  }

  /** A host past the bound starts the memory over rather than grow it. */
  set(host: string, id: number): void {
    if (this.ids.size >= KNOWN_DOMAINS_MAX) this.ids.clear();
    this.ids.set(host, id);
  }

  clear(): void {
    this.ids.clear();
  }
}
