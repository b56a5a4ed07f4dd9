import { basename } from 'node:path';

/**
 * A second reporter for `npm test`: after the TAP, what was skipped, grouped by what is missing.
 * A bare clone skips the suites that need ../shared, Chromium, Galera or root, each saying why at
 * its place in thousands of lines of TAP; this gathers them where a person looks, at the end.
 */

interface TestEvent {
  type: string;
  data: { name?: string; file?: string; skip?: boolean | string; nesting?: number };
}

export default async function* skipSummary(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const byReason = new Map<string, { tests: number; files: Set<string> }>();
  for await (const e of source) {
    if ((e.type !== 'test:pass' && e.type !== 'test:fail') || e.data.skip === undefined || e.data.skip === false) continue;
    const reason = typeof e.data.skip === 'string' && e.data.skip !== '' ? e.data.skip : 'skipped';
    const entry = byReason.get(reason) ?? { tests: 0, files: new Set<string>() };
    entry.tests++;
    if (e.data.file) entry.files.add(basename(e.data.file));
    byReason.set(reason, entry);
  }
  if (byReason.size === 0) return;
  const total = [...byReason.values()].reduce((n, x) => n + x.tests, 0);
  const lines = [...byReason].map(([reason, x]) => `  ${x.tests} in ${[...x.files].sort().join(', ') || 'these files'}: ${reason}`);
  yield `\nskipped: ${total} suite(s) or test(s), by what is missing\n${lines.join('\n')}\n`;
}
