import { resolveAgentdPaths, type AgentdPaths } from '../../config/agentd-paths.js';
import type { AgentdConfig } from '../../config/config-schema.js';
import { realDir } from '../../config/is-trusted-project.js';
import { allApiKeyVariables } from '../../config/resolve-api-key.js';
import { sandboxHiddenPaths, type HiddenPath, type HiddenPathsInput } from './hidden-paths.js';
import { buildEnvPolicy, type EnvPolicy } from './sandbox-env.js';

/** What every sandboxed process (bash, git facts) may see and inherit. Built once per daemon. */
export interface SandboxPolicy {
  /** Paths hidden inside the sandbox. */
  hidden: readonly HiddenPath[];
  /** The environment allowlist. */
  env: EnvPolicy;
  /** `sandbox.network`: keep the host network (and with it abstract Unix sockets). */
  allowNetwork: boolean;
  /** The user's trustedProjects as real paths: their `.agentd` stays read-only inside a writable root. */
  trustedProjects: readonly string[];
}

export interface SandboxPolicyInput {
  paths: AgentdPaths;
  /** The user's config: `sandbox`, `providers` and `trustedProjects`. */
  config: Pick<AgentdConfig, 'sandbox' | 'providers' | 'trustedProjects'>;
  /** The daemon's environment. */
  env: NodeJS.ProcessEnv;
  /** `--config FILE`. */
  configFile?: string;
  /** `serve --socket PATH`. */
  socketPath?: string;
  /** Overrides of the default credential list and socket dirs (tests). */
  credentialPaths?: HiddenPathsInput['credentialPaths'];
  socketDirs?: HiddenPathsInput['socketDirs'];
}

/** The policy and the config warnings it raised (a provider key listed in sandbox.env). */
export function buildSandboxPolicy(input: SandboxPolicyInput): { policy: SandboxPolicy; warnings: string[] } {
  const sandbox = input.config.sandbox ?? {};
  const { policy: env, warnings } = buildEnvPolicy(sandbox.env ?? [], allApiKeyVariables(input.config.providers));
  const hidden = sandboxHiddenPaths({
    paths: input.paths,
    env: input.env,
    ...(input.configFile !== undefined ? { configFile: input.configFile } : {}),
    ...(input.socketPath !== undefined ? { socketPath: input.socketPath } : {}),
    ...(sandbox.denyRead ? { denyRead: sandbox.denyRead } : {}),
    ...(input.credentialPaths ? { credentialPaths: input.credentialPaths } : {}),
    ...(input.socketDirs ? { socketDirs: input.socketDirs } : {}),
  });
  // Spelled as the trust decision spells them (`~` expanded, symlinks resolved).
  const trustedProjects = (input.config.trustedProjects ?? []).map(realDir);
  return { policy: { hidden, env, allowNetwork: sandbox.network ?? false, trustedProjects }, warnings };
}

/** The policy of a daemon on `env` with an empty config: what a tool built without one uses. */
export function defaultSandboxPolicy(env: NodeJS.ProcessEnv = process.env): SandboxPolicy {
  return buildSandboxPolicy({ paths: resolveAgentdPaths(env), config: {}, env }).policy;
}
