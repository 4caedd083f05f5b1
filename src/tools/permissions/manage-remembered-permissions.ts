import { rm } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite } from '../files/atomic-write.js';
import { describeRememberedRule } from './describe-remembered-rule.js';
import { loadRememberedPermissions, rememberedPermissionsFile } from './remembered-permissions.js';

/** One remembered answer as `agentd permissions list` shows it. */
export interface RememberedRule {
  /** `allow` for "always allow", `deny` for "always reject". */
  effect: 'allow' | 'deny';
  /** The rule as stored, e.g. `bash(npm test)`; also what `revoke` takes. */
  rule: string;
  /** What it covers, in words. */
  covers: string;
}

/** The directory remembered answers live in, under the daemon's data directory. */
export function permissionsStoreDir(dataDir: string): string {
  return path.join(dataDir, 'permissions');
}

/** A project's remembered answers, allows first. */
export async function listRememberedPermissions(cwd: string, storeDir: string): Promise<RememberedRule[]> {
  const set = await loadRememberedPermissions(cwd, storeDir);
  return (['allow', 'deny'] as const).flatMap((effect) =>
    (set[effect] ?? []).map((rule) => ({ effect, rule, covers: describeRememberedRule(rule) })),
  );
}

/**
 * Forgets remembered answers of a project: one rule (exactly as listed) or all of them.
 * Returns the rules removed; throws naming the remembered rules when `rule` is not one.
 */
export async function revokeRememberedPermission(cwd: string, storeDir: string, rule: string | { all: true }): Promise<string[]> {
  const file = rememberedPermissionsFile(cwd, storeDir);
  const set = await loadRememberedPermissions(cwd, storeDir);
  const current = [...(set.allow ?? []), ...(set.deny ?? [])];
  if (typeof rule !== 'string') {
    await rm(file, { force: true });
    return current;
  }
  if (!current.includes(rule)) {
    const known = current.length > 0 ? `remembered rules: ${current.join(', ')}` : 'no answers are remembered for it';
    throw new Error(`"${rule}" is not a remembered rule of ${path.resolve(cwd)} (${known}); run "agentd permissions list" and copy the rule exactly.`);
  }
  const next = { allow: (set.allow ?? []).filter((r) => r !== rule), deny: (set.deny ?? []).filter((r) => r !== rule) };
  await atomicWrite(file, `${JSON.stringify({ project: path.resolve(cwd), ...next }, null, 2)}\n`);
  return [rule];
}
