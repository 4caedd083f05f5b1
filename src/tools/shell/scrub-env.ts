/**
 * Environment variables a command must not see: API keys and tokens the daemon holds for
 * providers (`ANTHROPIC_API_KEY`, `GITHUB_TOKEN`, …) and the daemon's own settings and
 * secrets (`AGENTD_*`), so a prompt-injected command cannot read and leak them.
 */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    upper.startsWith('AGENTD_') || upper.endsWith('_API_KEY') || upper.endsWith('_TOKEN') || upper.endsWith('_SECRET')
  );
}

/** A copy of `env` without secrets (see `isSecretEnvName`). */
export function scrubEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isSecretEnvName(name)) clean[name] = value;
  }
  return clean;
}
