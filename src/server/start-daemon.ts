import { resolveAgentdPaths, type AgentdPaths } from '../config/agentd-paths.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { loadConfig } from '../config/load-config.js';
import { collectSecrets, redactSecrets } from '../config/redact-secrets.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import type { PermissionAsker } from '../session/permission-asker.js';
import type { PermissionMode } from '../tools/permissions/permission-mode.js';
import { describeSandbox, detectSandbox } from '../tools/sandbox/detect-sandbox.js';
import { createDaemonContext } from './create-daemon-context.js';
import type { DaemonContext } from './daemon-context.js';

export interface StartOptions {
  /** `--config FILE`. */
  configFile?: string;
  /** The project directory whose `.agentd/config.json` applies. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** `--model provider/model`. */
  model?: string;
  /** Where log lines go; stderr by default, never stdout. */
  write?: (line: string) => void;
  /** `--permission-mode`. */
  permissionMode?: PermissionMode;
  /** Who answers permission questions (headless runs: nobody). */
  asker?: PermissionAsker;
}

export interface StartedDaemon {
  daemon: DaemonContext;
  paths: AgentdPaths;
  config: AgentdConfig;
  store: Store;
  /** Stops running turns and closes the store. */
  shutdown(): Promise<void>;
}

/**
 * Everything a daemon or a headless run needs: paths, config (user, then project),
 * the store (turns cut short by a crash are marked interrupted) and the sessions.
 * Throws ConfigError with file, JSON path and fix for a bad config.
 */
export async function startDaemon(options: StartOptions): Promise<StartedDaemon> {
  const paths = resolveAgentdPaths(options.env);
  const { config, warnings } = loadConfig({ cwd: options.cwd, paths, ...(options.configFile ? { configFile: options.configFile } : {}) });
  const secrets = collectSecrets(config, options.env);
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const log = (line: string): void => write(`agentd: ${redactSecrets(line, secrets)}`);
  for (const warning of warnings) log(warning);
  const store = openStore(paths.databaseFile);
  const recovered = store.recoverInterruptedTurns();
  if (recovered.length > 0) log(`marked ${recovered.length} turn(s) interrupted by an earlier stop`);
  // Probed in the background so the first client is not kept waiting; bash awaits it.
  const sandbox = detectSandbox();
  void sandbox.then((info) => {
    if (info.mode === 'none') log(`bash runs without a sandbox (${describeSandbox(info)}); each command asks permission`);
  });
  const daemon = createDaemonContext({
    sandbox,
    ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
    ...(options.asker ? { asker: options.asker } : {}),
    config,
    paths,
    store,
    env: options.env,
    version: options.version,
    log,
    ...(options.model ? { model: options.model } : {}),
  });
  // In the background, like the sandbox probe; session handlers wait for it (mcp.configuredStarted).
  void daemon.mcp.startConfigured(config.mcpServers);
  return {
    daemon,
    paths,
    config,
    store,
    async shutdown() {
      await daemon.sessions.shutdown();
      await daemon.mcp.stopAll();
      store.close();
    },
  };
}
