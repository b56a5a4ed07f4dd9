/**
 * The little of robots.txt the demo search engine needs to keep disallowed pages out of its
 * index: the `User-agent: *` group's Allow and Disallow prefixes, longest match wins, Allow on a
 * tie. The crawler's own robots.txt handling lives in src/web; this is not it.
 */
export interface RobotsRules {
  allows(path: string): boolean;
}

export function parseRobots(text: string): RobotsRules {
  const rules: { allow: boolean; prefix: string }[] = [];
  let agents: string[] = [];
  let inRules = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const field = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (field === 'user-agent') {
      if (inRules) agents = [];
      inRules = false;
      agents.push(value.toLowerCase());
    } else if (field === 'allow' || field === 'disallow') {
      inRules = true;
      if (agents.includes('*') && value !== '') rules.push({ allow: field === 'allow', prefix: value });
    }
  }
  return {
    allows(path) {
      let best: { allow: boolean; prefix: string } | undefined;
      for (const r of rules) {
        if (!path.startsWith(r.prefix)) continue;
        if (!best || r.prefix.length > best.prefix.length || (r.prefix.length === best.prefix.length && r.allow)) {
          best = r;
        }
      }
      return best?.allow ?? true;
    },
  };
}
