import type { AgentdPaths } from '../config/agentd-paths.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { describeProviderSetup } from '../config/describe-provider-setup.js';
import { createModelCatalog } from '../providers/catalog/model-catalog.js';
import { priceUsage } from '../providers/catalog/price-usage.js';
import { createProviderRegistry } from '../providers/registry/create-provider-registry.js';
import { loadAgents } from '../config/load-agents.js';
import { BUILTIN_AGENTS, managerAgent } from '../loop/builtin-agents.js';
import { createAgentTool } from '../session/agent-tool.js';
import { DaemonCostTotals } from '../loop/track-cost.js';
import { skillDirs } from '../tools/builtin/skill.js';
import { discoverSkills } from '../tools/discover-skills.js';
import { pickDefaultModel } from '../session/pick-default-model.js';
import { createSessionServices } from '../session/create-session-services.js';
import { SessionManager } from '../session/session-manager.js';
import type { Store } from '../store/store.js';
import type { PermissionAsker } from '../session/permission-asker.js';
import { HookRunner } from '../tools/hooks/hook-runner.js';
import { McpManager } from '../tools/mcp/mcp-manager.js';
import type { PermissionMode } from '../tools/permissions/permission-mode.js';
import { ClientTools } from '../tools/remote/client-tools.js';
import { gitFacts } from '../loop/git-facts.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import { buildSandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import { createBuiltinTools, ToolRegistry } from '../tools/tool-registry.js';
import { createClientAsker } from './ask-client-permission.js';
import type { ClientConnection } from './client-connection.js';
import type { DaemonContext } from './daemon-context.js';

export interface DaemonOptions {
  config: AgentdConfig;
  /** Permission rules per config file, user then project; `config.permissions` alone when absent. */
  permissionSources?: Array<{ allow?: string[]; ask?: string[]; deny?: string[] }>;
  paths: AgentdPaths;
  store: Store;
  env: NodeJS.ProcessEnv;
  version: string;
  log(line: string): void;
  /** Overrides the configured default model (`--model`). */
  model?: string;
  /** Whether bash runs in bubblewrap (probed once at start-up, in the background). */
  sandbox: Promise<SandboxInfo>;
  /** `--config FILE` and `serve --socket PATH`: hidden from the sandbox like agentd's own dirs. */
  configFile?: string;
  socketPath?: string;
  /** Overrides config `permissions.mode` (`--permission-mode`). */
  permissionMode?: PermissionMode;
  /** The connected clients (the server's shell owns the set); a new empty set when absent. */
  clients?: Set<ClientConnection>;
  /** Who answers permission questions; clients of this daemon when absent. */
  asker?: PermissionAsker;
}

/** Builds the daemon's shared state: sessions backed by the store, models from config. */
export function createDaemonContext(options: DaemonOptions): DaemonContext {
  const { config, env, log } = options;
  const registry = createProviderRegistry({ config, env });
  const catalog = createModelCatalog(config.providers);
  const warned = new Set<string>();
  const tools = new ToolRegistry();
  // One policy for bash and git facts; a provider key listed in sandbox.env is refused here, loudly.
  const { policy: sandboxPolicy, warnings: sandboxWarnings } = buildSandboxPolicy({
    paths: options.paths,
    config,
    env,
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
    ...(options.socketPath !== undefined ? { socketPath: options.socketPath } : {}),
  });
  for (const warning of sandboxWarnings) log(warning);
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
  const asker = options.asker ?? createClientAsker(clients, (id) => sessions?.get(id)?.promptOrigin, (id) => sessions?.rootOf(id) ?? id);
  const subagents = config.subagents ?? {};
  tools.register(
    createAgentTool({
      sessions: () => sessions!,
      maxConcurrent: subagents.maxConcurrent ?? 4,
      executorModel: subagents.executorModel,
      budgetUsd: subagents.budgetUsd,
    }),
    { origin: 'builtin' },
  );
  const builtins = subagents.manager ? [...BUILTIN_AGENTS, managerAgent(subagents.managerModel)] : BUILTIN_AGENTS;
  const { mode: configMode, ...rules } = config.permissions ?? {};
  const clientTools = new ClientTools(tools, { ...(config.server?.requestTimeoutMs ? { defaultTimeoutMs: config.server.requestTimeoutMs } : {}) });
  const mcp = new McpManager({ registry: tools, log, clientVersion: options.version });
  const hooks = new HookRunner({ config: config.hooks, cwdOf: (id) => sessions!.record(id).cwd, log, env });
  const defaultModel = options.model ?? pickDefaultModel(config, env);
  const services = createSessionServices({
    tools: {
      registry: tools,
      rules: options.permissionSources ?? [rules],
      mode: options.permissionMode ?? configMode ?? 'ask',
      sandbox: options.sandbox,
      dataDir: options.paths.dataDir,
      asker,
      hooks,
      ...(config.tools?.maxParallel !== undefined ? { concurrency: config.tools.maxParallel } : {}),
      ...(config.tools?.timeoutMs !== undefined ? { timeoutMs: config.tools.timeoutMs } : {}),
    },
    loadAgents: (cwd) => {
      const loaded = loadAgents({ cwd, userConfigDir: options.paths.configDir, config, builtins });
      for (const error of loaded.errors) if (!warned.has(error)) (warned.add(error), log(error));
      return loaded.agents;
    },
    skills: (cwd) => discoverSkills(skillDirs(cwd, { userConfigDir: options.paths.configDir })).map(({ name, description }) => ({ name, description })),
    userConfigDir: options.paths.configDir,
    gitFacts: async (cwd) => gitFacts(cwd, { sandbox: await options.sandbox, policy: sandboxPolicy, env }),
    budgetUsd: config.budgetUsd,
    thinking: config.thinking,
    toolResultBudget: 50_000,
    costTotals: new DaemonCostTotals(),
    defaultModel,
    setupHelp: describeProviderSetup(options.paths),
    maxTurns: config.maxTurns ?? 50,
    log,
    createModel(ref) {
      // Retries, the shared circuit breaker and the fallback come wrapped by the registry.
      const fallback = config.fallbackModel && config.fallbackModel !== ref ? config.fallbackModel : undefined;
      return registry.resolve(ref, fallback ? { fallback } : {});
    },
    modelFacts(ref) {
      const info = catalog.lookup(ref);
      if (!info.known && !warned.has(ref)) {
        warned.add(ref);
        log(`model ${ref} is not in the catalog: assuming a ${info.contextWindow}-token window and no prices; set providers.<id>.models in config.json to correct this`);
      }
      return {
        contextWindow: info.contextWindow,
        maxOutputTokens: info.maxOutputTokens,
        price: (usage) => priceUsage(info, usage).usd,
      };
    },
  });
  sessions = new SessionManager(options.store, services, subagents.manager ? 'manager' : 'build');
  return {
    sessions,
    sandbox: options.sandbox,
    models: {
      defaultModel: () => defaultModel,
      choices: () =>
        catalog
          .list()
          .filter((m) => registry.isConfigured(m.ref.split('/')[0]!))
          .map((m) => ({ value: m.ref, name: m.ref })),
    },
    tools,
    clientTools,
    mcp,
    hooks,
    clients,
    config,
    version: options.version,
    log,
  };
}
