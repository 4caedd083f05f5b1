import { isTrustedProject } from './is-trusted-project.js';
import { lowerOnlyLimits } from './lower-only-limits.js';

/**
 * Settings a repository's own `.agentd/config.json` may not make unless the user trusts
 * that project: each could send API keys to another server, run commands, or switch
 * permission checks off just because a repository was cloned and opened.
 */
const UNTRUSTED_KEYS: Array<{ path: string[]; why: string }> = [
  { path: ['providers'], why: 'could send your API keys to another server' },
  { path: ['mcpServers'], why: 'starts programs' },
  { path: ['hooks'], why: 'runs commands' },
  { path: ['permissions', 'mode'], why: 'could switch permission prompts off' },
  { path: ['permissions', 'allow'], why: 'could allow commands without asking' },
  { path: ['sandbox'], why: 'could loosen the sandbox' },
  { path: ['tools', 'webFetchAllowedHosts'], why: 'could widen where web_fetch may go' },
  { path: ['trustedProjects'], why: 'cannot decide which projects are trusted (only your user config can)' },
];

/**
 * Returns the project file's settings with the ones it may not set removed (and limits it
 * may only lower, see lowerOnlyLimits), and one warning per removed setting naming it and
 * how to trust the project. A project listed
 * in the user's `trustedProjects` (itself, not a subfolder: see isTrustedProject) keeps everything.
 */
export function restrictProjectConfig(
  json: Record<string, unknown>,
  projectRoot: string,
  trustedProjects: readonly string[],
  /** The user's own settings, the ceiling for the limits a project may only lower. */
  user: Record<string, unknown> = {},
): { json: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  if ('schedules' in json) {
    // The daemon runs schedules of the user's config only: a project's would be accepted and never run.
    json = { ...json };
    delete json.schedules;
    warnings.push(
      `ignored schedules in ${projectRoot}/.agentd/config.json: schedules are read from your user config.json only; ` +
        `move them there and give each a "cwd" of "${projectRoot}"`,
    );
  }
  if ('store' in json) {
    // One store serves every project of the daemon: only the user's config chooses it.
    json = { ...json };
    delete json.store;
    warnings.push(`ignored store in ${projectRoot}/.agentd/config.json: the store is read from your user config.json only; move it there`);
  }
  if ('cluster' in json) {
    // The cluster settings are the daemon's own, like its store.
    json = { ...json };
    delete json.cluster;
    warnings.push(`ignored cluster in ${projectRoot}/.agentd/config.json: cluster settings are read from your user config.json only; move them there`);
  }
  if (isTrustedProject(projectRoot, trustedProjects)) return { json, warnings };
  const copy = structuredClone(json);
  for (const { path, why } of UNTRUSTED_KEYS) {
    const parent = path.slice(0, -1).reduce<Record<string, unknown> | undefined>(
      (node, key) => (node && typeof node[key] === 'object' && node[key] !== null ? (node[key] as Record<string, unknown>) : undefined),
      copy,
    );
    const key = path.at(-1)!;
    if (parent && key in parent) {
      delete parent[key];
      warnings.push(
        `ignored ${path.join('.')} in ${projectRoot}/.agentd/config.json: a project file ${why}; ` +
          `to allow it, add "${projectRoot}" to trustedProjects in your user config.json`,
      );
    }
  }
  warnings.push(...lowerOnlyLimits(copy, user, projectRoot));
  return { json: copy, warnings };
}
