import { isIP } from 'node:net';

/**
 * Which Host headers the studio answers (as Jupyter and Vite check theirs). A page on a name
 * its owner points at 127.0.0.1 (DNS rebinding) reaches the studio from the browser as a
 * same-origin page would, cookie and all; it cannot make the browser send a name other than its
 * own, so refusing every name the studio was not started on closes that door. An IP address is
 * always accepted: no rebinding goes through one, and a studio on 0.0.0.0 is reached by it.
 */

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The names the studio serves when it listens on `listen` (the --host given). */
export function servedNames(listen: string): Set<string> {
  return new Set([...LOOPBACK_NAMES, hostnameOf(listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen) ?? listen.toLowerCase()]);
}

/** Whether a request's Host header names the studio; no header at all is refused too. */
export function hostServed(header: string | undefined, names: ReadonlySet<string>): boolean {
  if (header === undefined) return false;
  const name = hostnameOf(header);
  if (name === undefined) return false;
  return names.has(name) || isIP(name.replace(/^\[|\]$/g, '')) !== 0;
}

/** The host name of `host[:port]`, as a browser spells it (lower case, IPv6 in brackets). */
function hostnameOf(hostPort: string): string | undefined {
  try {
    const u = new URL(`http://${hostPort}/`);
    return u.pathname === '/' && u.search === '' && u.hash === '' && u.username === '' && u.password === '' ? u.hostname : undefined;
  } catch {
    return undefined;
  }
}
