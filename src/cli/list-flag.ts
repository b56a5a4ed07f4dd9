/** Comma-separated list flag → trimmed, non-empty entries. */
export function listFlag(v: unknown): string[] {
  return String(v ?? '').split(',').map((x) => x.trim()).filter(Boolean);
}
