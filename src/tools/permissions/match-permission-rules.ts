import { homedir } from 'node:os';
import path from 'node:path';
import { globToRegex } from '../glob-to-regex.js';
import { parsePermissionRule, type PermissionRule } from '../../config/parse-permission-rule.js';
import { permissionTarget, type PermissionTarget } from './permission-target.js';
import { splitShellCommand } from './split-shell-command.js';

/** What a matching rule decides. */
export type RuleEffect = 'allow' | 'ask' | 'deny';

/** The rules of one source (user config, project config, remembered answers). */
export interface PermissionRuleSet {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

/** The call being decided. */
export interface RuleMatchInput {
  tool: string;
  args: Record<string, unknown>;
  /** Relative path patterns are relative to this directory. */
  cwd: string;
}

/** Rule tool names that also cover related tools, as in Claude Code's settings. */
const ALIASES: Record<string, string[]> = { edit: ['edit', 'write'], read: ['read', 'ls', 'glob', 'grep'] };

// Characters an allow wildcard never matches in a command: an allowed prefix must not
// stretch over command separators, substitutions or redirections.
const SHELL_META = ';&|\\n\\r`$()<>';

function canonical(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

function coversTool(rule: PermissionRule, tool: string): boolean {
  const name = canonical(rule.tool);
  const covered = ALIASES[name] ?? [name];
  return covered.includes(canonical(tool));
}

/** `*` wildcards (`\*` literal); a trailing `:*` is Claude Code's "this prefix, then anything". */
function commandRegex(pattern: string, effect: RuleEffect): RegExp {
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

function pathMatches(pattern: string, target: string, cwd: string): boolean {
  const absolute = path.resolve(cwd, target);
  if (pattern.startsWith('~/')) return globToRegex(path.join(homedir(), pattern.slice(2))).test(absolute);
  if (path.isAbsolute(pattern)) return globToRegex(pattern).test(absolute);
  const rel = path.relative(cwd, absolute) || '.';
  return globToRegex(pattern.replace(/^\.\//, '')).test(rel);
}

function urlMatches(pattern: string, url: string): boolean {
  if (pattern.startsWith('domain:')) {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return false;
    }
    return globToRegex(pattern.slice('domain:'.length).toLowerCase()).test(host);
  }
  return new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(url);
}

/** Whether one rule applies to a target (bash compound commands are handled by the caller). */
function ruleMatches(rule: PermissionRule, effect: RuleEffect, target: PermissionTarget | undefined, cwd: string): boolean {
  if (rule.pattern === undefined) return true;
  if (!target) return false;
  switch (target.kind) {
    case 'command':
      return commandRegex(rule.pattern, effect).test(target.value.trim());
    case 'path':
      return pathMatches(rule.pattern, target.value, cwd);
    case 'url':
      return urlMatches(rule.pattern, target.value);
    case 'name':
      return globToRegex(rule.pattern).test(target.value);
  }
}

const parsed = new Map<string, PermissionRule>();
function parse(text: string): PermissionRule {
  let rule = parsed.get(text);
  if (!rule) {
    rule = parsePermissionRule(text);
    parsed.set(text, rule);
  }
  return rule;
}

/** The rules in evaluation order: sources in order; within a source allow, ask, then deny. */
function ordered(sources: PermissionRuleSet[]): Array<{ rule: PermissionRule; effect: RuleEffect }> {
  return sources.flatMap((source) =>
    (['allow', 'ask', 'deny'] as const).flatMap((effect) => (source[effect] ?? []).map((text) => ({ rule: parse(text), effect }))),
  );
}

function lastMatch(
  rules: Array<{ rule: PermissionRule; effect: RuleEffect }>,
  tool: string,
  target: PermissionTarget | undefined,
  cwd: string,
): RuleEffect | undefined {
  let found: RuleEffect | undefined;
  for (const { rule, effect } of rules) {
    if (coversTool(rule, tool) && ruleMatches(rule, effect, target, cwd)) found = effect;
  }
  return found;
}

/**
 * The effect of the rules on a call, or undefined when no rule matches. The last matching
 * rule wins across the ordered sources (user config, then project config, then remembered
 * answers); within one source deny beats ask beats allow. A bash command made of several
 * commands is denied when the whole or any part is, else asked when the whole or any part
 * is, else allowed when a rule allows it whole or every part is allowed.
 */
export function matchPermissionRules(sources: PermissionRuleSet[], input: RuleMatchInput): RuleEffect | undefined {
  const rules = ordered(sources);
  const target = permissionTarget(input.tool, input.args);
  const whole = lastMatch(rules, input.tool, target, input.cwd);
  if (target?.kind !== 'command') return whole;
  const parts = splitShellCommand(target.value);
  if (parts.length <= 1) return whole;
  const each = parts.map((part) => lastMatch(rules, input.tool, { kind: 'command', value: part }, input.cwd));
  if (whole === 'deny' || each.includes('deny')) return 'deny';
  if (whole === 'ask' || each.includes('ask')) return 'ask';
  return whole === 'allow' || each.every((effect) => effect === 'allow') ? 'allow' : undefined;
}
