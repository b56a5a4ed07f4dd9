import type { ParsedRobots, RobotsGroup, RobotsRule } from './robots-parse.js';

/**
 * Whether a canonical pattern matches the start of a canonical path: `*` is any run of octets
 * (also none), a `$` at the very end anchors the end, everything else is literal. Google's
 * algorithm: keep every path position the pattern so far can end at; linear in path × pattern.
 */
export function patternMatches(pattern: string, path: string): boolean {
  const ends = new Array<number>(path.length + 1);
  ends[0] = 0;
  let count = 1;
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern[p];
    if (c === '$' && p + 1 === pattern.length) return ends[count - 1] === path.length;
    if (c === '*') {
      count = path.length - ends[0]! + 1;
      for (let i = 1; i < count; i++) ends[i] = ends[i - 1]! + 1;
      continue;
    }
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const at = ends[i]!;
      if (at < path.length && path[at] === c) ends[kept++] = at + 1;
    }
    if (kept === 0) return false;
    count = kept;
  }
  return true;
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
