import { homedir } from 'node:os';
import path from 'node:path';
import { compileGlob } from '../search/compile-glob.js';
import { compileWildcard, starPattern } from '../search/wildcard-matcher.js';
import { parsePermissionRule, type PermissionRule } from '../../config/parse-permission-rule.js';
import { permissionTarget, type PermissionTarget } from './permission-target.js';
import { matchCommandRules } from './match-command-rules.js';
import { ruleUrl } from './rule-url.js';
import type { RuleEffect, RulesByEffect } from './rule-effect.js';

export type { RuleEffect } from './rule-effect.js';

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

function canonical(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

function coversTool(rule: PermissionRule, tool: string): boolean {
  const name = canonical(rule.tool);
  const covered = ALIASES[name] ?? [name];
  return covered.includes(canonical(tool));
}

function pathMatches(pattern: string, target: string, cwd: string): boolean {
  const absolute = path.resolve(cwd, target);
  if (pattern.startsWith('~/')) return compileGlob(path.join(homedir(), pattern.slice(2))).test(absolute);
  if (path.isAbsolute(pattern)) return compileGlob(pattern).test(absolute);
  const rel = path.relative(cwd, absolute) || '.';
  return compileGlob(pattern.replace(/^\.\//, '')).test(rel);
}

function urlMatches(pattern: string, text: string): boolean {
  // Matched in one spelling (see ruleUrl), so `EVIL.example.` cannot slip past a deny rule.
  const url = ruleUrl(text);
  if (pattern.startsWith('domain:')) {
    return url !== undefined && compileGlob(pattern.slice('domain:'.length).toLowerCase().replace(/\.+$/, '')).test(url.host);
  }
  const literal = compileWildcard(starPattern(pattern, () => true, false));
  return literal.test(text) || (url !== undefined && literal.test(url.href));
}

/** Whether one rule applies to a path, URL or name target. */
function ruleMatches(rule: PermissionRule, target: PermissionTarget | undefined, cwd: string): boolean {
  if (rule.pattern === undefined) return true;
  if (!target) return false;
  switch (target.kind) {
    case 'command':
      return false; // matched part by part in matchCommandRules
    case 'path':
      return pathMatches(rule.pattern, target.value, cwd);
    case 'url':
      return urlMatches(rule.pattern, target.value);
    case 'name':
      return compileGlob(rule.pattern).test(target.value);
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

/** The rules for one tool from every source, grouped by effect. */
function rulesFor(sources: PermissionRuleSet[], tool: string): RulesByEffect {
  const pick = (effect: RuleEffect): PermissionRule[] =>
    sources.flatMap((source) => (source[effect] ?? []).map(parse)).filter((rule) => coversTool(rule, tool));
  return { deny: pick('deny'), ask: pick('ask'), allow: pick('allow') };
}

/**
 * The effect of the rules on a call, or undefined when no rule matches. Deny, then ask,
 * then allow, across all sources at once (user config, project config, remembered
 * answers), as Claude Code evaluates them: a matching deny anywhere refuses, else a
 * matching ask anywhere asks, else a matching allow allows. Where a rule comes from cannot
 * reorder this, so a project's `ask` never overrides the user's `deny`. Bash commands are
 * parsed and matched part by part (see matchCommandRules).
 */
export async function matchPermissionRules(sources: PermissionRuleSet[], input: RuleMatchInput): Promise<RuleEffect | undefined> {
  const rules = rulesFor(sources, input.tool);
  const target = permissionTarget(input.tool, input.args);
  if (target?.kind === 'command') return matchCommandRules(rules, target.value);
  for (const effect of ['deny', 'ask', 'allow'] as const) {
    if (rules[effect].some((rule) => ruleMatches(rule, target, input.cwd))) return effect;
  }
  return undefined;
}
