import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite } from '../files/atomic-write.js';
import { displayPath } from '../access/display-path.js';
import { parsePermissionRule } from '../../config/parse-permission-rule.js';
import type { PermissionRuleSet } from './match-permission-rules.js';
import { permissionTarget } from './permission-target.js';
import { ruleUrl } from './rule-url.js';

/** The ACP permission answers that are remembered (`allow_once` / `reject_once` are not). */
export type RememberedOutcome = 'allow_always' | 'reject_always';

/**
 * Where a project's remembered answers live: under the daemon's own data directory,
 * keyed by the project path — never inside the repository, where a cloned project could
 * ship its own "always allow" answers.
 */
export function rememberedPermissionsFile(cwd: string, storeDir: string): string {
  const key = createHash('sha256').update(path.resolve(cwd)).digest('hex').slice(0, 24);
  return path.join(storeDir, `${key}.json`);
}

/** A project's remembered answers as a rule source (`{}` when there are none). */
export async function loadRememberedPermissions(cwd: string, storeDir: string): Promise<PermissionRuleSet> {
  const file = rememberedPermissionsFile(cwd, storeDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it or delete it to forget the remembered answers.`);
  }
  const set: PermissionRuleSet = {};
  for (const key of ['allow', 'deny'] as const) {
    const value = (data as Record<string, unknown> | null)?.[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
      throw new Error(`${file}: "${key}" must be an array of rule strings; fix it or delete the file.`);
    }
    for (const rule of value) parsePermissionRule(rule);
    set[key] = value;
  }
  return set;
}

/** Escapes the characters patterns treat specially, so the rule matches this value only. */
function literal(value: string, special: RegExp): string {
  return value.replace(special, '\\$&');
}

/**
 * The rule an "always" answer stands for: this exact command for bash, this exact path
 * (relative to cwd) for file tools, this host for web_fetch, and the whole tool otherwise.
 */
export function ruleForCall(tool: string, args: Record<string, unknown>, cwd: string): string {
  const target = permissionTarget(tool, args);
  if (!target) return tool;
  switch (target.kind) {
    case 'command':
      return `${tool}(${literal(target.value.trim(), /\*/g)})`;
    case 'path': {
      const shown = displayPath(path.resolve(cwd, target.value), cwd);
      return `${tool}(${literal(shown, /[*?[\]{}\\]/g)})`;
    }
    case 'url': {
      const url = ruleUrl(target.value);
      return url ? `${tool}(domain:${literal(url.host, /[*?[\]{}\\]/g)})` : tool;
    }
    case 'name':
      return `${tool}(${literal(target.value, /[*?[\]{}\\]/g)})`;
  }
}

/**
 * Records an "always" answer for the project (see rememberedPermissionsFile); returns the
 * rule added, or undefined when it would be longer than a rule may be (a very long
 * command): the answer then applies to this call only, and the file stays loadable.
 */
export async function rememberPermission(
  cwd: string,
  storeDir: string,
  call: { tool: string; args: Record<string, unknown>; outcome: RememberedOutcome },
): Promise<string | undefined> {
  const rule = ruleForCall(call.tool, call.args, cwd);
  try {
    parsePermissionRule(rule);
  } catch {
    return undefined;
  }
  const current = await loadRememberedPermissions(cwd, storeDir);
  const add = call.outcome === 'allow_always' ? 'allow' : 'deny';
  const remove = add === 'allow' ? 'deny' : 'allow';
  const next: PermissionRuleSet = {
    allow: (current.allow ?? []).filter((r) => r !== rule),
    deny: (current.deny ?? []).filter((r) => r !== rule),
  };
  next[add] = [...(next[add] ?? []), rule];
  next[remove] = next[remove] ?? [];
  // `project` is for whoever opens the file; only allow and deny are read back.
  await atomicWrite(rememberedPermissionsFile(cwd, storeDir), `${JSON.stringify({ project: path.resolve(cwd), ...next }, null, 2)}\n`);
  return rule;
}
