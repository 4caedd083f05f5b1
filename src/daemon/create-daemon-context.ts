import path from 'node:path';
import { join } from 'node:path';
import { ConfigWatcher } from '../config/config-watcher.js';
import { readUserConfig } from '../config/load-config.js';
import { DaemonCostTotals } from '../loop/track-cost.js';
import type { PermissionAnswer, PermissionAsker, PermissionQuestionForClient } from '../project/permission-asker.js';
import type { ProjectParts } from '../project/project-parts.js';
import { Projects } from '../project/projects.js';
import { RememberedWarnings } from '../project/remembered-warnings.js';
import { createModelCatalog } from '../providers/catalog/model-catalog.js';
import { createProviderRegistry } from '../providers/registry/create-provider-registry.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { createClientAsker } from '../server/acp/ask-client-permission.js';
import { broadcastDaemonEvent } from '../server/acp/broadcast-daemon-event.js';
import type { ClientConnection } from '../server/wire/client-connection.js';
import type { DaemonContext } from '../server/daemon-context.js';
import { DaemonHealthLog } from '../server/daemon-health-log.js';
import { createAgentTool } from '../session/agent-tool.js';
import { LiveSessions } from '../session/live-sessions.js';
import { OpenPermissionQuestions } from '../session/open-permission-questions.js';
import { SessionManager } from '../session/session-manager.js';
import type { Store } from '../store/store.js';
import type { WorkQueue } from '../server/work-queue.js';
import type { SessionRouting } from '../server/session-routing.js';
import type { TurnSlots } from '../session/turn-slots.js';
import { HookRunner } from '../tools/hooks/hook-runner.js';
import { McpManager } from '../tools/mcp/mcp-manager.js';
import { ClientTools } from '../tools/remote/client-tools.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import { buildSandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import { createBuiltinTools, ToolRegistry } from '../tools/tool-registry.js';
import type { ClusterMembership } from './cluster/join-cluster.js';
import { ConfigReloader } from './config-reloader.js';
import { createMcpClientPorts } from './create-mcp-client-ports.js';
import { createRunPrompt } from './create-run-prompt.js';
import type { DaemonSettings } from './load-daemon-settings.js';

/** Asks a turn's question of the clients here (`askHere`) and of those following its root session on other daemons. */
export type AskEverywhere = (root: string, question: PermissionQuestionForClient, signal: AbortSignal, askHere: PermissionAsker) => Promise<PermissionAnswer>;

/** The daemon as src/daemon/ holds it: the server's context, with the config reloader itself. */
export interface BuiltDaemonContext extends DaemonContext {
  reloader: ConfigReloader;
  /** This daemon in the cluster sharing its store: its id, its sessions' leases. */
  cluster: ClusterMembership;
  /**
   * On PostgreSQL, set once live updates across daemons have started (start-daemon.ts):
   * questions of turns here go to the followers on other daemons too. Unset, only the clients here are asked.
   */
  questionsElsewhere: { askEverywhere?: AskEverywhere };
}

/**
 * Builds the daemon's shared state, each part before what needs it: the live sessions
 * (found by the asker, MCP servers' requests and hooks), the tools and servers of the
 * user's config, the projects (one per settings root, see Project), the session manager,
 * the agent tool that starts sub-agents through it, the config reloader and the scheduler.
 */
export function createDaemonContext(
  settings: DaemonSettings,
  store: Store,
  cluster: ClusterMembership,
  sandbox: Promise<SandboxInfo>,
  clients: Set<ClientConnection>,
  /** The turn slots every top-level turn takes one of (`cluster.concurrency`), and the work queue taking jobs into them. */
  work: { slots: TurnSlots; queue: WorkQueue; routing: SessionRouting },
): BuiltDaemonContext {
  const { options, config, paths, log } = settings;
  const { env, version } = options;
  const configFile = options.configFile !== undefined ? path.resolve(options.cwd, options.configFile) : undefined;
  const socketPath = options.socketPath !== undefined ? path.resolve(options.cwd, options.socketPath) : undefined;
  const hiddenFiles = { ...(configFile !== undefined ? { configFile } : {}), ...(socketPath !== undefined ? { socketPath } : {}) };
  const live = new LiveSessions(store);

  const tools = new ToolRegistry();
  // The user's policy for the built-in bash; each project's tools run with their own (see ProjectTools).
  const { policy: sandboxPolicy } = buildSandboxPolicy({ paths, config, env, ...hiddenFiles });
  const builtinOptions = {
    bash: { policy: sandboxPolicy },
    // The same user skills folder the system prompt lists.
    skill: { userConfigDir: paths.configDir },
    ...(config.tools?.webFetchAllowedHosts ? { webFetch: { allowedHosts: config.tools.webFetchAllowedHosts } } : {}),
  };
  for (const tool of createBuiltinTools(builtinOptions)) tools.register(tool, { origin: 'builtin' });

  // Sessions running a scheduled run: headless, so nobody is asked, not even a client that opened one.
  const headless = new Set<string>();
  // A sub-agent's questions go to the clients of the session that started it.
  const clientAsker = options.asker ?? createClientAsker(clients, (id) => live.get(id)?.promptOrigin, (id) => live.rootOf(id));
  const permissionQuestions = new OpenPermissionQuestions();
  const questionsElsewhere: BuiltDaemonContext['questionsElsewhere'] = {};
  const asker: PermissionAsker = (question, signal) => {
    const root = live.rootOf(question.sessionId);
    if (headless.has(root)) return Promise.resolve('no_client');
    const { askEverywhere } = questionsElsewhere;
    return permissionQuestions.during(root, question, () => (askEverywhere ? askEverywhere(root, question, signal, clientAsker) : clientAsker(question, signal)));
  };
  const mcp = new McpManager({
    registry: tools,
    log,
    clientVersion: version,
    ports: createMcpClientPorts(live, clients, headless),
    ...(config.tools?.mcpStartupTimeoutMs !== undefined ? { startupTimeoutMs: config.tools.mcpStartupTimeoutMs } : {}),
  });
  const hooks = new HookRunner({
    config: config.hooks,
    // A trusted project's hooks replace the user's for its sessions (an untrusted one's are stripped).
    configOf: (id) => live.get(id)?.project.config.hooks,
    cwdOf: (id) => live.liveRecord(id).cwd,
    log,
    env,
  });

  const parts: ProjectParts = {
    userConfig: config,
    registry: createProviderRegistry({ config, env }),
    catalog: createModelCatalog(config.providers),
    sandbox,
    tools,
    asker,
    hooks,
    mcpServers: mcp,
    paths,
    ...hiddenFiles,
    env,
    ...(options.model ? { model: options.model } : {}),
    ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
    costTotals: new DaemonCostTotals(),
    log,
    warned: new Set<string>(),
    agentProblems: new Map<string, string[]>(),
    rememberedWarnings: new RememberedWarnings(join(paths.stateDir, 'warnings-shown.json')),
  };
  const projects = new Projects(settings.projects, parts);
  const sessions = new SessionManager(store, live, (cwd) => projects.for(cwd), cluster.leases, work.slots);
  tools.register(createAgentTool({ sessions }), { origin: 'builtin' });

  const healthLog = new DaemonHealthLog();
  const userConfigFile = configFile ?? paths.configFile;
  const reloader = new ConfigReloader({
    watcher: new ConfigWatcher({ userConfigFile, userConfigDir: paths.configDir, onChange: (change) => reloader.apply(change), log }),
    settings: settings.projects,
    projects,
    sessions,
    clients,
    healthLog,
    userConfigFile,
    readUserLayer: () => readUserConfig({ cwd: paths.configDir, paths, ...(configFile !== undefined ? { configFile } : {}) }),
    log,
  });
  const scheduler = new Scheduler({
    store: store.schedules,
    daemonId: cluster.daemonId,
    // A run recorded by a daemon still alive goes on there; one whose daemon is gone ended with it.
    isRunAbandoned: async (run) => run.daemonId === null || !(await store.cluster.listDaemons()).some((daemon) => daemon.alive && daemon.id === run.daemonId),
    serves: (cwd) => cluster.folders.serves(cwd),
    runPrompt: createRunPrompt(sessions, clients, headless),
    emit: (event) => broadcastDaemonEvent(clients, event),
    log,
  });
  return {
    sessions,
    permissionQuestions,
    questionsElsewhere,
    scheduler,
    work: work.queue,
    routing: work.routing,
    folders: cluster.folders,
    sandbox,
    sandboxPolicy,
    providerScopes: () => projects.providerScopes(),
    env,
    healthLog,
    tools,
    clientTools: new ClientTools(tools, { ...(config.server?.requestTimeoutMs ? { defaultTimeoutMs: config.server.requestTimeoutMs } : {}) }),
    mcp,
    hooks,
    clients,
    reloader,
    // start-daemon.ts names the PostgreSQL store when that is the one it opened.
    storeInUse: { type: 'sqlite', location: paths.databaseFile },
    cluster,
    // The user's config in force: it follows edits of the file.
    get config() {
      return projects.userConfig;
    },
    version,
    log,
    problems: (cwd) => [...reloader.standingProblems(), ...(parts.agentProblems.get(cwd) ?? [])],
  };
}
