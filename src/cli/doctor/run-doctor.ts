import path from 'node:path';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { checkConfig } from './check-config.js';
import { checkDaemon } from './check-daemon.js';
import { checkDataDirOwner } from './check-data-dir-owner.js';
import { checkDefaultModel } from './check-default-model.js';
import { checkDirectories } from './check-directories.js';
import { checkMcpServers } from './check-mcp-servers.js';
import { checkNodeVersion } from './check-node-version.js';
import { checkProvidersReach } from './check-providers.js';
import { checkRipgrep } from './check-ripgrep.js';
import { buildSandboxPolicy } from '../../tools/sandbox/sandbox-policy.js';
import { checkSandbox } from './check-sandbox.js';
import { checkStore } from './check-store.js';
import { checkPostgresStore } from './check-postgres-store.js';
import { checkClusterRoots } from './check-cluster-roots.js';
import { chooseStore } from '../../daemon/open-daemon-store.js';
import { packageVersion } from '../package-version.js';
import { failCheck, warnCheck, type DoctorCheck, type DoctorReport } from './doctor-check.js';
import type { AgentdConfig, StoreConfig } from '../../config/config-schema.js';

/** What `agentd doctor` examines. */
export interface DoctorOptions {
  /** Environment for paths (AGENTD_HOME, XDG_*), API keys, base URLs and PATH. */
  env: NodeJS.ProcessEnv;
  /** The project directory whose `.agentd/config.json` applies. */
  cwd: string;
  /** `--config FILE`. */
  configFile?: string;
  /** The bwrap binary to probe (tests); `bwrap` on PATH by default. */
  bwrapPath?: string;
  /** The Node.js version to judge (tests); `process.versions.node` by default. */
  nodeVersion?: string;
  /** How long a daemon on the socket gets to answer `initialize`. */
  daemonTimeoutMs?: number;
  /** How long each MCP server of the config gets to start; the daemon's 10 s by default. */
  mcpStartupTimeoutMs?: number;
  /** How long each provider's model list gets to answer; 5 s by default. */
  providerTimeoutMs?: number;
}

/**
 * Runs every check and collects them in display order. Checks never throw: each problem
 * becomes a `fail` or `warn` with its fix. The slow ones (sandbox probe, rg, socket, MCP
 * servers started and stopped again) run side by side. Nothing is created or changed on disk.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const paths = resolveAgentdPaths(options.env);
  const { check: configCheck, config } = checkConfig({
    paths,
    cwd: options.cwd,
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
  });
  const { policy, warnings: policyWarnings } = buildSandboxPolicy({
    paths,
    config: config ?? {},
    env: options.env,
    ...(options.configFile !== undefined ? { configFile: path.resolve(options.cwd, options.configFile) } : {}),
  });
  const [sandbox, ripgrep, daemon, mcpServers, providerChecks, store] = await Promise.all([
    checkSandbox({
      ...(options.bwrapPath !== undefined ? { bwrapPath: options.bwrapPath } : {}),
      allowNetwork: config?.sandbox?.network ?? false,
      policy,
      policyWarnings,
      ...(options.env.HOME ? { home: options.env.HOME } : {}),
    }),
    checkRipgrep(options.env),
    checkDaemon(paths.socketPath, options.daemonTimeoutMs),
    config ? checkMcpServers(config, packageVersion(), options.mcpStartupTimeoutMs) : Promise.resolve([]),
    config ? checkProvidersReach({ config, env: options.env, paths, timeoutMs: options.providerTimeoutMs ?? 5_000 }) : Promise.resolve([]),
    checkChosenStore(config ?? {}, options.env, paths.databaseFile),
  ]);
  const modelChecks: DoctorCheck[] =
    config === undefined
      ? [warnCheck('providers', 'providers', 'not checked: the config is invalid', 'fix the config problems listed above first')]
      : [...providerChecks, checkDefaultModel(config, options.env)];
  const checks = [
    checkNodeVersion(options.nodeVersion),
    configCheck,
    ...(config ? checkClusterRoots(config) : []),
    ...checkDirectories(paths),
    store,
    sandbox,
    ripgrep,
    ...modelChecks,
    ...mcpServers,
    daemon,
    checkDataDirOwner(paths.dataDir),
  ];
  return { ok: checks.every((check) => check.status !== 'fail'), checks };
}

/** The store the daemon would open: the SQLite file, or the PostgreSQL server of `store` / AGENTD_STORE_URL. */
async function checkChosenStore(config: AgentdConfig, env: NodeJS.ProcessEnv, databaseFile: string): Promise<DoctorCheck> {
  let choice: StoreConfig;
  try {
    choice = chooseStore(config, env);
  } catch (error) {
    return failCheck('store', 'session store', (error as Error).message, 'fix AGENTD_STORE_URL or unset it');
  }
  return choice.type === 'postgres' ? checkPostgresStore(choice.url) : checkStore(databaseFile);
}
