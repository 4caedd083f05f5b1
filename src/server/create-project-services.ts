import type { AgentdPaths } from '../config/agentd-paths.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { describeProviderSetup } from '../config/describe-provider-setup.js';
import { loadAgents } from '../config/load-agents.js';
import type { ProjectSettings } from '../config/project-settings.js';
import { BUILTIN_AGENTS, managerAgent } from '../config/builtin-agents.js';
import { gitFacts } from '../session/git-facts.js';
import type { DaemonCostTotals } from '../loop/track-cost.js';
import { createModelCatalog, type ModelCatalog } from '../providers/catalog/model-catalog.js';
import { notInCatalogWarning } from '../providers/catalog/not-in-catalog-warning.js';
import { priceUsage } from '../providers/catalog/price-usage.js';
import { createProviderRegistry, type ProviderRegistry } from '../providers/registry/create-provider-registry.js';
import { createSessionServices } from '../session/create-session-services.js';
import type { PermissionAsker } from '../session/permission-asker.js';
import { pickDefaultModel } from '../session/pick-default-model.js';
import type { SessionServices } from '../session/session-services.js';
import { skillDirs } from '../tools/builtin/skill.js';
import { discoverSkills } from '../tools/discover-skills.js';
import type { HookRunner } from '../tools/hooks/hook-runner.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import { detectSandbox, type SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import { buildSandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import type { RememberedWarnings } from './remembered-warnings.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { McpServersView } from '../tools/mcp/wait-for-mcp-servers.js';

/** What every project's services share: the daemon's own parts, built once from the user's config. */
export interface SharedServiceParts {
  /** The user's own config (daemon-wide). */
  userConfig: AgentdConfig;
  /** Providers and catalog of the user's config, used by every project that does not set `providers`. */
  registry: ProviderRegistry;
  catalog: ModelCatalog;
  tools: ToolRegistry;
  asker: PermissionAsker;
  hooks: HookRunner;
  /** The sandbox probe for the user's `sandbox.enabled`. */
  sandbox: Promise<SandboxInfo>;
  paths: AgentdPaths;
  /** `--config FILE` and `serve --socket PATH`, hidden from the sandbox. */
  configFile?: string;
  socketPath?: string;
  env: NodeJS.ProcessEnv;
  costTotals: DaemonCostTotals;
  /** The daemon's MCP servers (a turn waits for its session's still starting). */
  mcpServers: McpServersView;
  /** `--model`, over every project's default. */
  model?: string;
  /** `--permission-mode`, over every project's `permissions.mode`. */
  permissionMode?: PermissionMode;
  log(line: string): void;
  /** Lines already logged (agent and skill errors), so each is logged once per daemon. */
  warned: Set<string>;
  /** Standing facts shown once per machine (a model missing from the catalog). */
  rememberedWarnings: RememberedWarnings;
  /** The agent-file errors of each session directory as last loaded, for the clients that open a session there. */
  agentProblems: Map<string, string[]>;
}

/**
 * The session services of one project directory: every session-level setting (default
 * model, fallback, maxTurns, budget, thinking, tool limits, permission rules and mode,
 * agents, sub-agents) from its settings, and a trusted project's providers and sandbox
 * settings (its hooks and MCP servers are applied by the hook runner and session/new).
 */
export function createProjectServices(settings: ProjectSettings, shared: SharedServiceParts): SessionServices {
  const { config } = settings;
  // Only a trusted project's file can set providers; then it gets a registry of its own.
  const ownProviders = settings.project.providers !== undefined;
  const registry = ownProviders ? createProviderRegistry({ config, env: shared.env }) : shared.registry;
  const catalog = ownProviders ? createModelCatalog(config.providers) : shared.catalog;
  const subagents = config.subagents ?? {};
  const builtins = subagents.manager ? [...BUILTIN_AGENTS, managerAgent(subagents.managerModel)] : BUILTIN_AGENTS;
  const { log, warned } = shared;
  const logOnce = (line: string): void => {
    if (!warned.has(line)) (warned.add(line), log(line));
  };
  // Hidden paths, environment and network from this project's effective config: a trusted
  // project's denyRead and sandbox.env apply, and its providers' key variables stay blocked.
  const { policy: sandboxPolicy, warnings } = buildSandboxPolicy({
    paths: shared.paths,
    config,
    env: shared.env,
    ...(shared.configFile !== undefined ? { configFile: shared.configFile } : {}),
    ...(shared.socketPath !== undefined ? { socketPath: shared.socketPath } : {}),
  });
  for (const warning of warnings) logOnce(warning);
  const sandbox = sandboxFor(config, shared);
  return createSessionServices({
    settings,
    tools: {
      registry: shared.tools,
      rules: settings.permissionSources,
      mode: shared.permissionMode ?? config.permissions?.mode ?? 'ask',
      sandbox,
      dataDir: shared.paths.dataDir,
      asker: shared.asker,
      hooks: shared.hooks,
      settings: {
        bashNetwork: config.sandbox?.network ?? false,
        sandboxPolicy,
        ...(config.tools?.webFetchAllowedHosts ? { webFetchAllowedHosts: config.tools.webFetchAllowedHosts } : {}),
      },
      ...(config.tools?.maxParallel !== undefined ? { concurrency: config.tools.maxParallel } : {}),
      ...(config.tools?.timeoutMs !== undefined ? { timeoutMs: config.tools.timeoutMs } : {}),
    },
    loadAgents: (cwd) => {
      const loaded = loadAgents({ cwd, userConfigDir: shared.paths.configDir, config: settings.user, projectConfig: settings.project, trusted: settings.trusted, builtins });
      for (const error of loaded.errors) logOnce(error);
      shared.agentProblems.set(cwd, loaded.errors);
      return loaded.agents;
    },
    skills: (cwd) =>
      discoverSkills(skillDirs(cwd, { userConfigDir: shared.paths.configDir }), ({ file, message }) => logOnce(`${file}: ${message}`)).map(({ name, description }) => ({ name, description })),
    userConfigDir: shared.paths.configDir,
    gitFacts: async (cwd) => gitFacts(cwd, { sandbox: await sandbox, policy: sandboxPolicy, env: shared.env }),
    costTotals: shared.costTotals,
    mcpServers: shared.mcpServers,
    defaultModel: shared.model ?? pickDefaultModel(config, shared.env),
    defaultMode: subagents.manager ? 'manager' : 'build',
    modelChoices: () =>
      catalog
        .list()
        .filter((m) => registry.isConfigured(m.ref.split('/')[0]!))
        .map((m) => ({ value: m.ref, name: m.ref })),
    setupHelp: describeProviderSetup(shared.paths),
    log,
    // Retries and the circuit breaker come wrapped by the registry; the loop turns to the fallback.
    createModel: (ref) => registry.resolve(ref),
    fallbackModel: config.fallbackModel,
    modelFacts(ref) {
      const info = catalog.lookup(ref);
      // Once per model per machine: it stays true run after run, and `agentd doctor` shows it again.
      if (!info.known && shared.rememberedWarnings.firstTime(`not-in-catalog ${ref}`)) log(notInCatalogWarning(ref, info.contextWindow));
      return { contextWindow: info.contextWindow, maxOutputTokens: info.maxOutputTokens, price: (usage) => priceUsage(info, usage).usd };
    },
  });
}

/** The sandbox probe the user's config asks for: none when `sandbox.enabled` is false (bash then asks every time). */
export function userSandbox(config: AgentdConfig): Promise<SandboxInfo> {
  return config.sandbox?.enabled === false ? Promise.resolve<SandboxInfo>({ mode: 'none', reason: 'turned off by sandbox.enabled in config' }) : detectSandbox();
}

/** The daemon's probe, unless a trusted project turns the sandbox on or off differently. */
function sandboxFor(config: AgentdConfig, shared: SharedServiceParts): Promise<SandboxInfo> {
  const enabled = config.sandbox?.enabled !== false;
  if (enabled === (shared.userConfig.sandbox?.enabled !== false)) return shared.sandbox;
  return enabled ? detectSandbox() : Promise.resolve({ mode: 'none', reason: 'turned off by sandbox.enabled in the project config' });
}
