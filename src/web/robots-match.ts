import type { ParsedRobots, RobotsGroup, RobotsRule } from './robots-parse.js';

/**
 * Whether a canonical pattern matches the start of a canonical path: `*` is any run of octets
 * (also none), a `$` at the very end anchors the end, everything else is literal. The literal
 * pieces between stars are placed leftmost-first, which finds a match whenever one exists; unlike
 * the set-of-positions algorithm of Google (and robots-parser) it does not walk the whole path
 * once per pattern octet, so a hostile `/*a*a*a…` line cannot make a check slow.
 */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = pieces[0]!;
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let at = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const found = path.indexOf(pieces[i]!, at);
    if (found < 0) return false;
    at = found + pieces[i]!.length;
  }
  const tail = pieces[last]!;
  if (anchored) return path.length - tail.length >= at && path.endsWith(tail);
  return path.indexOf(tail, at) >= 0;
}

/**
 * The groups that apply to a product token (RFC 9309 §2.2.1): every group naming it, merged;
 * otherwise every `*` group, merged; otherwise none. An empty token only gets `*` groups.
 */
export function groupsFor(parsed: ParsedRobots, token: string): RobotsGroup[] {
  const own = token ? parsed.groups.filter((g) => g.agents.includes(token)) : [];
  return own.length > 0 ? own : parsed.groups.filter((g) => g.agents.includes('*'));
}

/**
 * The deciding rule (RFC 9309 §2.2.2): the longest matching pattern in octets; on a tie, allow.
 * Empty patterns match nothing (an empty Disallow allows all). Undefined when nothing matches.
 */
export function decidingRule(groups: RobotsGroup[], path: string): RobotsRule | undefined {
  let best: RobotsRule | undefined;
  for (const group of groups) {
    for (const rule of group.rules) {
      if (rule.match === '' || !patternMatches(rule.match, path)) continue;
      if (
        !best ||
        rule.match.length > best.match.length ||
        (rule.match.length === best.match.length && rule.directive === 'allow' && best.directive === 'disallow')
      ) {
        best = rule;
      }
    }
  }
  return best;
}
