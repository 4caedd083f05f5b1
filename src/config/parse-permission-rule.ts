/** A parsed permission rule: `tool` or `tool(pattern)`. */
export interface PermissionRule {
  /** The tool name as written (matching ignores case, `_` and `-`: `WebFetch` is `web_fetch`). */
  tool: string;
  /** What the tool's primary argument must match; absent means every call of the tool. */
  pattern?: string;
  /** The rule as written, for messages. */
  text: string;
}

/** A rule string that cannot be parsed; the message says what is wrong and the expected form. */
export class PermissionRuleError extends Error {
  constructor(rule: string, problem: string) {
    super(`Invalid permission rule ${JSON.stringify(rule)}: ${problem}. Write "tool" or "tool(pattern)", e.g. "bash(npm test*)", "edit(src/**)" or "web_fetch(domain:example.com)".`);
    this.name = 'PermissionRuleError';
  }
}

const TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/** Bounds that keep matching one rule cheap, whatever a project's config says. */
export const MAX_RULE_PATTERN_LENGTH = 4096;
export const MAX_RULE_WILDCARDS = 64;

/**
 * Parses `tool` or `tool(pattern)` (the Claude Code settings syntax). The pattern runs
 * from the first `(` to the final `)`, so it may itself contain parentheses. `tool(*)`
 * is the same as `tool`.
 */
export function parsePermissionRule(text: string): PermissionRule {
  const rule = text.trim();
  if (rule === '') throw new PermissionRuleError(text, 'it is empty');
  const open = rule.indexOf('(');
  if (open === -1) {
    if (!TOOL_NAME.test(rule)) throw new PermissionRuleError(text, 'the tool name may only contain letters, digits, "_" and "-"');
    return { tool: rule, text: rule };
  }
  const tool = rule.slice(0, open).trim();
  if (!TOOL_NAME.test(tool)) throw new PermissionRuleError(text, 'the tool name before "(" may only contain letters, digits, "_" and "-"');
  if (!rule.endsWith(')')) throw new PermissionRuleError(text, 'the pattern must end with ")"');
  const pattern = rule.slice(open + 1, -1);
  if (pattern.trim() === '') throw new PermissionRuleError(text, 'the pattern between the parentheses is empty');
  if (pattern.length > MAX_RULE_PATTERN_LENGTH) {
    throw new PermissionRuleError(text, `the pattern is ${pattern.length} characters long; at most ${MAX_RULE_PATTERN_LENGTH} are allowed`);
  }
  const wildcards = pattern.match(/(?<!\\)\*/g)?.length ?? 0;
  if (wildcards > MAX_RULE_WILDCARDS) {
    throw new PermissionRuleError(text, `the pattern has ${wildcards} wildcards ("*"); at most ${MAX_RULE_WILDCARDS} are allowed, so use fewer`);
  }
  return pattern === '*' ? { tool, text: rule } : { tool, pattern, text: rule };
}
