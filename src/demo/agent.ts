import { Agent, buildConnector } from 'undici';

/** Host names of the demo web: `x.demo` and any name under it. */
export function isDemoHost(name: string): boolean {
  return /(^|\.)demo\.?$/i.test(name);
}

/**
 * An undici Agent that dials 127.0.0.1 for every `.demo` name and refuses every other name, so
 * a client of the demo web (the search provider, a test) needs no DNS and cannot leave the
 * machine. The Host header still carries the name, which is how the demo server picks a site.
 * The crawler itself reaches the same hosts through its own `--resolve HOST:127.0.0.1` mapping.
 */
export function demoAgent(): Agent {
  const inner = buildConnector({});
  return new Agent({
    connect(options, callback) {
      if (!isDemoHost(options.hostname)) {
        const err = Object.assign(new Error(`the offline demo reaches .demo hosts only, not ${options.hostname}`), {
          code: 'ENOTFOUND',
        });
        callback(err, null);
        return;
      }
      inner({ ...options, hostname: '127.0.0.1', servername: undefined }, callback);
    },
  });
}
