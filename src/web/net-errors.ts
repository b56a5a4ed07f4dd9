import { AddressError } from './connector.js';
import { WireError } from './body.js';
import type { FailureKind } from './outcome.js';

/**
 * Turns what undici and node:net throw into a failure kind. Codes are matched rather than
 * classes because the same condition arrives as an undici error or a raw socket error
 * depending on when it happened.
 */
export function classifyNetworkError(err: unknown, timedOut: boolean): { failure: FailureKind; detail: string } {
  let e = err instanceof WireError ? err.original : err;
  // undici wraps some socket errors; the cause has the code that says what happened.
  const cause = (e as { cause?: unknown })?.cause;
  if (cause instanceof AddressError) e = cause;
  if (e instanceof AddressError) return { failure: e.failure, detail: e.message };
  const code = String((e as NodeJS.ErrnoException)?.code ?? (cause as NodeJS.ErrnoException)?.code ?? '');
  const message = (e as Error)?.message ?? String(e);
  const detail = code ? `${code}: ${message}` : message;
  if (timedOut) return { failure: 'timeout', detail: 'no complete answer within the time limit' };
  if (/TIMEOUT|ETIMEDOUT/.test(code)) return { failure: 'timeout', detail };
  if (code === 'ECONNREFUSED') return { failure: 'refused', detail };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return { failure: 'dns', detail };
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code) || /certificate|SSL|TLS/i.test(code)) {
    return { failure: 'tls', detail };
  }
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ECONNABORTED' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_CLOSED' ||
    code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE'
  ) {
    return { failure: 'reset', detail };
  }
  return { failure: 'network', detail };
}
