/**
 * True when a tool name matches one of the patterns, where `*` matches any run of
 * characters (`mcp_*`, `*__search`) and everything else matches itself. No patterns
 * (undefined) matches every tool; an empty list matches none.
 */
export function matchesToolPattern(name: string, patterns: readonly string[] | undefined): boolean {
  if (patterns === undefined) return true;
  return patterns.some((pattern) => patternRegex(pattern).test(name));
}

const cache = new Map<string, RegExp>();

function patternRegex(pattern: string): RegExp {
  let regex = cache.get(pattern);
  if (!regex) {
    const body = pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    regex = new RegExp(`^${body}$`);
    cache.set(pattern, regex);
  }
  return regex;
}
