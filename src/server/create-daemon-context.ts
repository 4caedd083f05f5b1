import { join } from 'node:path';
import type { AgentdPaths } from '../config/agentd-paths.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { ConfigWatcher } from '../config/config-watcher.js';
import { readUserConfig } from '../config/load-config.js';
import type { ProjectSettingsResolver } from '../config/project-settings.js';
import { createModelCatalog } from '../providers/catalog/model-catalog.js';
import { createProviderRegistry } from '../providers/registry/create-provider-registry.js';
import { createAgentTool } from '../session/agent-tool.js';
import { DaemonCostTotals } from '../loop/track-cost.js';
import { SessionManager } from '../session/session-manager.js';
import type { Store } from '../store/store.js';
import type { PermissionAsker } from '../session/permission-asker.js';
import { HookRunner } from '../tools/hooks/hook-runner.js';
import { McpManager } from '../tools/mcp/mcp-manager.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import { ClientTools } from '../tools/remote/client-tools.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import { buildSandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import { createBuiltinTools, ToolRegistry } from '../tools/tool-registry.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { broadcastDaemonEvent } from './broadcast-daemon-event.js';
import { createRunPrompt } from './create-run-prompt.js';
import { createClientAsker } from './ask-client-permission.js';
import type { ClientConnection } from './client-connection.js';
import { ConfigReloader } from './config-reloader.js';
import { createMcpClientPorts } from './create-mcp-client-ports.js';
import type { SharedServiceParts } from './create-project-services.js';
import type { DaemonContext } from './daemon-context.js';
import { ProjectServicesCache } from './project-services-cache.js';
import { RememberedWarnings } from './remembered-warnings.js';

export interface DaemonOptions {
  /** The user's own config (user config.json or `--config`): the daemon-wide settings. */
  config: AgentdConfig;
  /** Each session directory's settings: the user's config with that project's file over it. */
  projects: ProjectSettingsResolver;
  paths: AgentdPaths;
  store: Store;
  env: NodeJS.ProcessEnv;
  version: string;
  log(line: string): void;
  /** Overrides every project's default model (`--model`). */
  model?: string;
  /** Whether bash runs in bubblewrap (probed once at start-up, in the background). */
  sandbox: Promise<SandboxInfo>;
  /** `--config FILE` and `serve --socket PATH`: hidden from the sandbox like agentd's own dirs. */
  configFile?: string;
  socketPath?: string;
  /** Overrides every project's `permissions.mode` (`--permission-mode`). */
  permissionMode?: PermissionMode;
  /** The connected clients (the server's shell owns the set); a new empty set when absent. */
  clients?: Set<ClientConnection>;
  /** Who answers permission questions; clients of this daemon when absent. */
  asker?: PermissionAsker;
}

/**
 * Builds the daemon's shared state: sessions backed by the store, providers, tools and
 * servers from the user's config, and per session directory the services its project's
 * settings give (resolved whenever a session goes live, built once per settings).
 */
export function createDaemonContext(options: DaemonOptions): DaemonContext {
  const { config, env, log } = options;
  const registry = createProviderRegistry({ config, env });
  const catalog = createModelCatalog(config.providers);
  const tools = new ToolRegistry();
  const sandboxFiles = {
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
    ...(options.socketPath !== undefined ? { socketPath: options.socketPath } : {}),
  };
  // The user's policy; each project's services build their own from its effective config.
  const { policy: sandboxPolicy } = buildSandboxPolicy({ paths: options.paths, config, env, ...sandboxFiles });
  const builtinOptions = {
    bash: { policy: sandboxPolicy },
    // The same user skills folder the system prompt lists.
    skill: { userConfigDir: options.paths.configDir },
    ...(config.tools?.webFetchAllowedHosts ? { webFetch: { allowedHosts: config.tools.webFetchAllowedHosts } } : {}),
  };
  for (const tool of createBuiltinTools(builtinOptions)) tools.register(tool, { origin: 'builtin' });
  const clients = options.clients ?? new Set<ClientConnection>();
  let sessions: SessionManager | undefined;
  // A sub-agent's questions go to the clients of the session that started it.
  const clientAsker = options.asker ?? createClientAsker(clients, (id) => sessions?.get(id)?.promptOrigin, (id) => sessions?.rootOf(id) ?? id);
  // Sessions running a scheduled run: headless, so nobody is asked, not even a client that opened one.
  const headless = new Set<string>();
  const asker: PermissionAsker = (question, signal) =>
    headless.has(sessions?.rootOf(question.sessionId) ?? question.sessionId) ? Promise.resolve('no_client') : clientAsker(question, signal);
  tools.register(createAgentTool({ sessions: () => sessions! }), { origin: 'builtin' });
  const clientTools = new ClientTools(tools, { ...(config.server?.requestTimeoutMs ? { defaultTimeoutMs: config.server.requestTimeoutMs } : {}) });
  const mcp = new McpManager({
    registry: tools,
    log,
    clientVersion: options.version,
    ports: createMcpClientPorts(() => sessions!, clients, headless),
    ...(config.tools?.mcpStartupTimeoutMs !== undefined ? { startupTimeoutMs: config.tools.mcpStartupTimeoutMs } : {}),
  });
  const hooks = new HookRunner({
    config: config.hooks,
    // A trusted project's hooks replace the user's for its sessions (an untrusted one's are stripped).
    configOf: (id) => sessions?.get(id)?.services.settings.config.hooks,
    cwdOf: (id) => sessions!.record(id).cwd,
    log,
    env,
  });
  const shared: SharedServiceParts = {
    userConfig: config,
    registry,
    catalog,
    tools,
    asker,
    hooks,
    sandbox: options.sandbox,
    paths: options.paths,
    ...sandboxFiles,
    env,
    costTotals: new DaemonCostTotals(),
    mcpServers: mcp,
    log,
    warned: new Set<string>(),
    agentProblems: new Map<string, string[]>(),
    rememberedWarnings: new RememberedWarnings(join(options.paths.stateDir, 'warnings-shown.json')),
    ...(options.model ? { model: options.model } : {}),
    ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
  };
  const services = new ProjectServicesCache(options.projects, shared);
  sessions = new SessionManager(options.store, (cwd) => services.servicesFor(cwd));
  const userConfigFile = options.configFile ?? options.paths.configFile;
  const reloader = new ConfigReloader({
    watcher: new ConfigWatcher({ userConfigFile, userConfigDir: options.paths.configDir, onChange: (change) => reloader.apply(change), log }),
    projects: options.projects,
    services,
    sessions,
    clients,
    userConfigFile,
    readUserLayer: () => readUserConfig({ cwd: options.paths.configDir, paths: options.paths, ...(options.configFile !== undefined ? { configFile: options.configFile } : {}) }),
    log,
  });
  const scheduler = new Scheduler({
    store: options.store.schedules,
    runPrompt: createRunPrompt(sessions, clients, headless),
    emit: (event) => broadcastDaemonEvent(clients, event),
    log,
  });
  return {
    sessions,
    scheduler,
    sandbox: options.sandbox,
    tools,
    clientTools,
    mcp,
    hooks,
    clients,
    reloader,
    // The user's config in force: it follows edits of the file.
    get config() {
      return services.userConfig;
    },
    version: options.version,
    log,
    problems: (cwd) => [...reloader.standingProblems(), ...(shared.agentProblems.get(cwd) ?? [])],
  };
}
