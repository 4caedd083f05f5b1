import { compileWildcard, starPattern, type WildcardMatcher } from '../search/wildcard-matcher.js';

/**
 * True when a tool name matches one of the patterns, where `*` matches any run of
 * characters (`mcp_*`, `*__search`) and everything else matches itself. No patterns
 * (undefined) matches every tool; an empty list matches none. Matching takes linear time
 * whatever the pattern (see compileWildcard).
 */
export function matchesToolPattern(name: string, patterns: readonly string[] | undefined): boolean {
  if (patterns === undefined) return true;
  return patterns.some((pattern) => patternMatcher(pattern).test(name));
}

const cache = new Map<string, WildcardMatcher>();

function patternMatcher(pattern: string): WildcardMatcher {
  let matcher = cache.get(pattern);
  if (!matcher) {
    matcher = compileWildcard(starPattern(pattern, () => true, false));
    cache.set(pattern, matcher);
  }
  return matcher;
}
