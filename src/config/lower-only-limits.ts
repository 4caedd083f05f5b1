/**
 * Spending and run-length limits a repository's own config may lower but not raise
 * unless the user trusts the project: a cloned project must not be able to let an agent
 * spend more of the user's money, or run longer, than the user's own config allows.
 * A limit the user left unset has no ceiling other than the built-in default, which a
 * project may likewise only lower.
 */
const LIMITS: Array<{ path: string[]; builtIn: number | undefined }> = [
  { path: ['budgetUsd'], builtIn: undefined },
  { path: ['maxTurns'], builtIn: 50 },
  { path: ['subagents', 'budgetUsd'], builtIn: undefined },
  { path: ['subagents', 'maxConcurrent'], builtIn: 4 },
  { path: ['tools', 'maxParallel'], builtIn: 8 },
  { path: ['tools', 'timeoutMs'], builtIn: 120_000 },
];

function numberAt(json: Record<string, unknown>, path: string[]): number | undefined {
  let node: unknown = json;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return typeof node === 'number' ? node : undefined;
}

/**
 * Removes from `project` (in place) every limit above the user's own (or the built-in
 * default when the user set none); returns one warning per removed limit.
 */
export function lowerOnlyLimits(project: Record<string, unknown>, user: Record<string, unknown>, projectRoot: string): string[] {
  const warnings: string[] = [];
  for (const { path, builtIn } of LIMITS) {
    const wanted = numberAt(project, path);
    const ceiling = numberAt(user, path) ?? builtIn;
    if (wanted === undefined || ceiling === undefined || wanted <= ceiling) continue;
    // numberAt found a number there, so every object on the way exists.
    const parent = path.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, project);
    delete parent[path.at(-1)!];
    warnings.push(
      `ignored ${path.join('.')}: ${wanted} in ${projectRoot}/.agentd/config.json: a project file may lower this limit but not raise it above ` +
        `${ceiling}${numberAt(user, path) === undefined ? ' (the default)' : ' (your config)'}; ` +
        `raise it in your user config.json, or add "${projectRoot}" to trustedProjects`,
    );
  }
  return warnings;
}
