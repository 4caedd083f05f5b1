import { parseShellCommand } from './parse-shell-command.js';
import type { RuleEffect, RulesByEffect } from './rule-effect.js';

// Characters an allow wildcard never matches: an allowed prefix must not stretch over
// separators, substitutions or redirections (defence in depth behind the parser).
const SHELL_META = ';&|\\n\\r`$()<>';

/**
 * A command pattern as a regex: `*` is a wildcard (`\*` a literal star), and a trailing
 * `:*` is Claude Code's "this prefix as whole words, then anything". Deny and ask
 * wildcards match anything; allow wildcards never match shell syntax.
 */
export function commandRegex(pattern: string, effect: RuleEffect): RegExp {
  const any = effect === 'allow' ? `[^${SHELL_META}]*` : '[\\s\\S]*';
  let body = pattern;
  let suffix = '';
  if (body.endsWith(':*')) {
    body = body.slice(0, -2);
    suffix = `(?:\\s${any})?`;
  }
  let out = '';
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i] as string;
    if (c === '\\' && body[i + 1] === '*') {
      out += '\\*';
      i += 1;
    } else out += c === '*' ? any : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}${suffix}$`);
}

/** True for a pattern without wildcards: it names one command line exactly. */
function isExact(pattern: string): boolean {
  return !/(^|[^\\])\*/.test(pattern);
}

/**
 * Command rules against a bash command line, parsed with a real shell parser:
 * - deny (then ask) when a rule matches the whole line, any simple command in it
 *   (inside `$(…)`, pipes, subshells, `sh -c '…'` too), or any spelling of one (`/bin/rm`,
 *   `sudo rm`);
 * - allow when an allow rule covers every tool call (`bash`), names this exact line, or
 *   covers each simple command, provided the line parses, every command name is a literal
 *   word, nothing is set before a command (`PATH=. npm test`), and nothing is written to a
 *   file by a redirection (`2>&1` and `>/dev/null` are fine);
 * - undefined otherwise (the permission mode decides: ask by default).
 */
export async function matchCommandRules(rules: RulesByEffect, command: string): Promise<RuleEffect | undefined> {
  const whole = command.trim();
  const parsed = await parseShellCommand(whole);
  const spellings = [whole, ...parsed.parts.flatMap((part) => [part.text, ...part.variants])];
  for (const effect of ['deny', 'ask'] as const) {
    const hit = rules[effect].some(
      (rule) => rule.pattern === undefined || spellings.some((text) => commandRegex(rule.pattern as string, effect).test(text)),
    );
    if (hit) return effect;
  }
  const exact = rules.allow.some(
    (rule) => rule.pattern === undefined || (isExact(rule.pattern) && commandRegex(rule.pattern, 'allow').test(whole)),
  );
  if (exact) return 'allow';
  if (parsed.opaque.length > 0 || parsed.parts.length === 0 || parsed.parts.some((part) => part.notAllowable)) return undefined;
  const covered = parsed.parts.every((part) =>
    rules.allow.some((rule) => rule.pattern !== undefined && commandRegex(rule.pattern, 'allow').test(part.text)),
  );
  return covered ? 'allow' : undefined;
}
