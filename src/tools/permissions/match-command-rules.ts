import { compileWildcard, starPattern, type WildcardMatcher } from '../search/wildcard-matcher.js';
import { parseShellCommand } from './parse-shell-command.js';
import type { RuleEffect, RulesByEffect } from './rule-effect.js';

// Characters an allow wildcard never matches: an allowed prefix must not stretch over
// separators, substitutions or redirections (defence in depth behind the parser).
const SHELL_META = new Set([...';&|\n\r`$()<>'].map((c) => c.charCodeAt(0)));

/** What `\s` matches in the ASCII range, plus the Unicode spaces JavaScript's `\s` knows. */
const isSpace = (c: number): boolean => /\s/.test(String.fromCharCode(c));

/**
 * A command pattern as a matcher: `*` is a wildcard (`\*` a literal star), and a trailing
 * `:*` is Claude Code's "this prefix as whole words, then anything". Deny and ask
 * wildcards match anything; allow wildcards never match shell syntax. Matching takes
 * linear time in the command whatever the pattern (see compileWildcard).
 */
export function commandMatcher(pattern: string, effect: RuleEffect): WildcardMatcher {
  const test = effect === 'allow' ? (c: number) => !SHELL_META.has(c) : () => true;
  const prefixOnly = pattern.endsWith(':*');
  const body = starPattern(prefixOnly ? pattern.slice(0, -2) : pattern, test, true);
  if (!prefixOnly) return compileWildcard(body);
  const rest = { kind: 'seq' as const, pieces: [{ kind: 'char' as const, test: isSpace }, { kind: 'any' as const, test }] };
  return compileWildcard({ kind: 'seq', pieces: [body, { kind: 'opt', piece: rest }] });
}

/** True for a pattern without wildcards: it names one command line exactly. */
function isExact(pattern: string): boolean {
  return !/(^|[^\\])\*/.test(pattern);
}

/**
 * Command rules against a bash command line, parsed with a real shell parser:
 * - deny (then ask) when a rule matches the whole line, any simple command in it
 *   (inside `$(…)`, pipes, subshells, `sh -c '…'` too), or any spelling of one (`/bin/rm`,
 *   `sudo rm`, `find -exec rm`); a line bash evaluates beyond what the parser sees
 *   (arithmetic, `[[ -v ]]`, brace or ANSI-C words, a computed name, `| sh`; see
 *   ParsedShellCommand.evaluated) matches every deny and ask rule: the judge fails closed;
 * - allow when an allow rule covers every tool call (`bash`), names this exact line, or
 *   covers each simple command, provided the line parses, nothing in it is evaluated,
 *   every command name is a literal word, nothing is set before a command
 *   (`PATH=. npm test`), and nothing is written to a file by a redirection (`2>&1` and
 *   `>/dev/null` are fine);
 * - undefined otherwise (the permission mode decides: ask by default).
 */
export async function matchCommandRules(rules: RulesByEffect, command: string): Promise<RuleEffect | undefined> {
  const whole = command.trim();
  const parsed = await parseShellCommand(whole);
  const evaluated = parsed.evaluated.length > 0;
  const spellings = [whole, ...parsed.parts.flatMap((part) => [part.text, ...part.variants])];
  for (const effect of ['deny', 'ask'] as const) {
    const hit = rules[effect].some((rule) => {
      if (rule.pattern === undefined || evaluated) return true;
      const matcher = commandMatcher(rule.pattern, effect);
      return spellings.some((text) => matcher.test(text));
    });
    if (hit) return effect;
  }
  const exact = rules.allow.some(
    (rule) => rule.pattern === undefined || (isExact(rule.pattern) && commandMatcher(rule.pattern, 'allow').test(whole)),
  );
  if (exact) return 'allow';
  if (evaluated || parsed.opaque.length > 0 || parsed.parts.length === 0 || parsed.parts.some((part) => part.notAllowable)) return undefined;
  const matchers = rules.allow.flatMap((rule) => (rule.pattern === undefined ? [] : [commandMatcher(rule.pattern, 'allow')]));
  return parsed.parts.every((part) => matchers.some((m) => m.test(part.text))) ? 'allow' : undefined;
}
