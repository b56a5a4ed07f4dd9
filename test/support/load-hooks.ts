import { appendFileSync } from 'node:fs';

/** Module hooks (load-trace.ts registers them): each URL the ES module loader resolves is appended to a file. */
let file = '';

export function initialize(data: { file: string }): void {
  file = data.file;
}

export async function resolve(
  specifier: string, context: unknown, next: (s: string, c: unknown) => Promise<{ url: string }>,
): Promise<{ url: string }> {
  const found = await next(specifier, context);
  appendFileSync(file, `${found.url}\n`);
  return found;
}
