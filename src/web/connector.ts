import { buildConnector } from 'undici';
import type { AddressPolicy } from './address.js';

/** Errors of the address check, recognisable after undici hands them back from a request. */
export class AddressError extends Error {
  constructor(
    readonly failure: 'dns' | 'refused-address',
    detail: string,
  ) {
    super(detail);
    this.name = 'AddressError';
  }
}

/**
 * An undici connector that asks the policy for the address and dials that address only. The
 * Host header comes from the URL and SNI from `servername`, so both keep the name while the
 * TCP connection goes where the check said it may. Every new connection passes here, redirects
 * included, so this is the one gate no request can go around.
 */
export function guardedConnector(policy: AddressPolicy, opts: buildConnector.BuildOptions = {}): buildConnector.connector {
  const inner = buildConnector(opts);
  return (options, callback) => {
    const name = options.hostname;
    policy.check(name).then(
      (verdict) => {
        if (!verdict.ok) {
          callback(new AddressError(verdict.failure, verdict.detail), null);
          return;
        }
        const servername = options.servername || (verdict.via === 'literal' ? undefined : name);
        inner({ ...options, hostname: verdict.address, servername }, callback);
      },
      (err: Error) => callback(err, null),
    );
  };
}
