import type { AgentDefinition } from '../config/agent-definition.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { BUILTIN_AGENTS, managerAgent } from '../config/builtin-agents.js';
import { buildSystemPrompt } from '../config/build-system-prompt.js';
import { describeProviderSetup } from '../config/describe-provider-setup.js';
import { findAgentsFiles } from '../config/find-agents-files.js';
import { loadAgents } from '../config/load-agents.js';
import type { ProjectSettings } from '../config/project-settings.js';
import { DEFAULT_TOOL_RESULT_BUDGET_CHARS } from '../loop/budget-tool-results.js';
import type { TurnSettings } from '../loop/loop-context.js';
import type { SystemBlock, ToolSpec } from '../providers/request.js';
import type { SessionRecord } from '../store/store.js';
import { skillDirs } from '../tools/builtin/skill.js';
import { discoverSkills } from '../tools/discover-skills.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import { detectSandbox, type SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import { buildSandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import type { AccessPolicy } from '../tools/access/access-policy.js';
import type { McpServersView } from '../tools/mcp/wait-for-mcp-servers.js';
import type { Tool } from '../tools/tool.js';
import { gitFacts, type GitFacts } from './git-facts.js';
import { pickDefaultModel } from './pick-default-model.js';
import type { ProjectParts } from './project-parts.js';
import { ProjectModels, type ProviderScope, type ResolvedModel } from './project-models.js';
import { ProjectTools, type SessionToolDispatch, type ToolHost } from './project-tools.js';
import type { RunOverrides } from './run-overrides.js';

/** Model requests per turn when neither config `maxTurns` nor the agent says. */
const DEFAULT_MAX_TURNS = 50;

/**
 * One settings root (a session directory) and everything its settings give its sessions:
 * the effective config, providers and model catalog, agents, skills and system prompt,
 * the sandbox policy and the tool dispatch. One object per root for the daemon's life;
 * `version` rises whenever one of its files changes (its config, the user's, AGENTS.md,
 * skills, agent files), and a session compares it before each model request to know
 * that what it runs with must be rebuilt.
 */
export class Project {
  private current!: ProjectSettings;
  private versionNumber = 0;
  private models!: ProjectModels;
  private tools!: ProjectTools;
  private builtinAgents!: readonly AgentDefinition[];
  /** Git facts are read once per session (and again after a change), like the status "at the start of the conversation" other agents show. */
  private gitBySession = new Map<string, Promise<GitFacts | undefined>>();
  /** An AGENTS.md left out or cut is said once per version, not at every model request. */
  private reported = new Set<string>();

  constructor(
    settings: ProjectSettings,
    private readonly parts: ProjectParts,
  ) {
    this.build(settings);
  }

  /** The session directory (a real path) whose settings these are. */
  get root(): string {
    return this.current.root;
  }

  /** Rises whenever one of the project's files changes. */
  get version(): number {
    return this.versionNumber;
  }

  /** The settings in force: the user's config with the project's file laid over it. */
  get settings(): ProjectSettings {
    return this.current;
  }

  get config(): AgentdConfig {
    return this.current.config;
  }

  /** New settings for this root (its file or the user's changed): everything they give is rebuilt. */
  update(settings: ProjectSettings): void {
    this.build(settings);
    this.touch();
  }

  /** A file read on use changed (AGENTS.md, a skill, an agent file): sessions rebuild their turn settings. */
  touch(): void {
    this.versionNumber++;
    this.gitBySession = new Map();
    this.reported = new Set();
  }

  /** `provider/model` a session uses until it picks one; undefined when none is configured. */
  get defaultModel(): string | undefined {
    return this.parts.model ?? pickDefaultModel(this.config, this.parts.env);
  }

  /** The agent new sessions start with (`manager` in manager mode). */
  get defaultMode(): string {
    return this.config.subagents?.manager ? 'manager' : 'build';
  }

  /** The mode a turn holds when its run sets none (`--permission-mode`); the project's configured mode applies without one. */
  get turnPermissionMode(): PermissionMode | undefined {
    return this.parts.permissionMode;
  }

  /** Whether bash runs in bubblewrap for these sessions. */
  get sandbox(): Promise<SandboxInfo> {
    return this.tools.sandbox;
  }

  /** The daemon's MCP servers: a turn waits for those of its session still starting. */
  get mcpServers(): McpServersView {
    return this.parts.mcpServers;
  }

  get costTotals(): ProjectParts['costTotals'] {
    return this.parts.costTotals;
  }

  log(line: string): void {
    this.parts.log(line);
  }

  /** The project's own providers and their registry, when its trusted file sets `providers`. */
  ownProviders(): ProviderScope | undefined {
    return this.models.ownProviders();
  }

  /** The models a session may pick (configured providers only). */
  modelChoices(): Array<{ value: string; name: string }> {
    return this.models.choices();
  }

  /** The model for a ref (else the default), with the fallback; throws ModelNotConfiguredError when none can be used. */
  resolveModel(ref: string | null): ResolvedModel {
    return this.models.resolve(ref ?? this.defaultModel);
  }

  /** Every agent (mode) available in a session's project: built-ins, config, agent files. */
  agents(record: Pick<SessionRecord, 'cwd'>): AgentDefinition[] {
    const { user, project, trusted } = this.current;
    const loaded = loadAgents({ cwd: record.cwd, userConfigDir: this.parts.paths.configDir, config: user, projectConfig: project, trusted, builtins: this.builtinAgents });
    for (const error of loaded.errors) this.logOnce(error);
    this.parts.agentProblems.set(record.cwd, loaded.errors);
    return loaded.agents;
  }

  /** The agent of the session's current mode (`build` when the mode is unknown), from `agents` when already loaded. */
  agent(record: Pick<SessionRecord, 'cwd' | 'mode'>, agents = this.agents(record)): AgentDefinition {
    return agents.find((a) => a.name === record.mode) ?? agents.find((a) => a.name === 'build') ?? agents[0]!;
  }

  /** Role prompt, guidance, skills, AGENTS.md, then session facts. */
  async systemPrompt(record: SessionRecord, agent: AgentDefinition): Promise<SystemBlock[]> {
    let git$ = this.gitBySession.get(record.id);
    if (!git$) this.gitBySession.set(record.id, (git$ = this.readGitFacts(record.cwd)));
    const reportOnce = ({ file, message }: { file: string; message: string }): void => {
      const line = `${file}: ${message}`;
      if (!this.reported.has(line)) (this.reported.add(line), this.log(line));
    };
    const [agentsFiles, git] = await Promise.all([findAgentsFiles(record.cwd, this.parts.paths.configDir, reportOnce), git$]);
    const skills = discoverSkills(skillDirs(record.cwd, { userConfigDir: this.parts.paths.configDir }), ({ file, message }) => this.logOnce(`${file}: ${message}`));
    return buildSystemPrompt({
      rolePrompt: agent.prompt,
      agentsFiles,
      skills: skills.map(({ name, description }) => ({ name, description })),
      cwd: record.cwd,
      ...(git ? { git } : {}),
    });
  }

  /** The tools the agent may use, as sent to the model. */
  toolSpecs(record: SessionRecord, agent: AgentDefinition): ToolSpec[] {
    return this.tools.specs(record, agent);
  }

  /** Why the agent may not use a tool (its access, or a parent's constraints on a sub-agent), if it may not. */
  refusal(record: SessionRecord, agent: AgentDefinition, tool: Tool): string | undefined {
    return this.tools.refusal(record, agent, tool);
  }

  /** What the sandbox hides from a session's bash, which its file tools and MCP roots keep off too. */
  accessPolicy(sessionId: string): AccessPolicy {
    return this.tools.accessPolicy(sessionId);
  }

  /**
   * What one turn of a session runs with: its agent's prompt, tools and limits, and the
   * model resolved for it; a run's own budget (`run`) for that run's turn only.
   */
  async turnSettings(
    record: SessionRecord,
    agent: AgentDefinition,
    model: ResolvedModel,
    signals: { signal: AbortSignal; requestSignal(): AbortSignal },
    run?: RunOverrides,
  ): Promise<TurnSettings> {
    const { config } = this;
    const budgetUsd = this.budgetUsd(record, run);
    const { fallback, ...primary } = model;
    return {
      model: primary,
      ...(fallback ? { fallback } : {}),
      system: await this.systemPrompt(record, agent),
      tools: this.toolSpecs(record, agent),
      refusal: (tool) => this.refusal(record, agent, tool),
      maxTurns: agent.maxTurns ?? config.maxTurns ?? DEFAULT_MAX_TURNS,
      ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
      ...(budgetUsd !== undefined ? { budgetUsd } : {}),
      ...(config.thinking !== undefined ? { thinking: config.thinking } : {}),
      // Characters of older tool results kept in each request (the store keeps all).
      toolResultBudget: DEFAULT_TOOL_RESULT_BUDGET_CHARS,
      signal: signals.signal,
      requestSignal: signals.requestSignal,
    };
  }

  /**
   * The budget (US dollars) a session's spending is held to: a run's own for that run's turn,
   * else a sub-agent's share of its parent's sub-agent budget (in its record), else the config's.
   */
  budgetUsd(record: SessionRecord, run?: RunOverrides): number | undefined {
    if (run?.budgetUsd !== undefined) return run.budgetUsd;
    // Only a sub-agent's record carries a budget: a top-level record's `budgetUsd` (written by
    // older scheduled runs) is ignored.
    const ownBudget = record.meta.parentSessionId !== undefined ? record.meta.budgetUsd : undefined;
    return ownBudget ?? this.config.budgetUsd;
  }

  /** Tool dispatch for one session (its permissions, hooks, file state), as this version of the project gives it. */
  toolDispatch(host: ToolHost): Promise<SessionToolDispatch> {
    return this.tools.dispatch(host);
  }

  private build(settings: ProjectSettings): void {
    const { parts } = this;
    const { config } = settings;
    this.current = settings;
    this.models = new ProjectModels(parts, settings, describeProviderSetup(parts.paths));
    const subagents = config.subagents ?? {};
    this.builtinAgents = subagents.manager ? [...BUILTIN_AGENTS, managerAgent(subagents.managerModel)] : BUILTIN_AGENTS;
    // Hidden paths, environment and network from this project's effective config: a trusted
    // project's denyRead and sandbox.env apply, and its providers' key variables stay blocked.
    const { policy, warnings } = buildSandboxPolicy({
      paths: parts.paths,
      config,
      env: parts.env,
      ...(parts.configFile !== undefined ? { configFile: parts.configFile } : {}),
      ...(parts.socketPath !== undefined ? { socketPath: parts.socketPath } : {}),
    });
    for (const warning of warnings) this.logOnce(warning);
    this.tools = new ProjectTools(parts, config, settings.permissionSources, policy, this.sandboxFor(config));
  }

  /** The daemon's probe, unless a trusted project turns the sandbox on or off differently. */
  private sandboxFor(config: AgentdConfig): Promise<SandboxInfo> {
    const enabled = config.sandbox?.enabled !== false;
    if (enabled === (this.parts.userConfig.sandbox?.enabled !== false)) return this.parts.sandbox;
    return enabled ? detectSandbox() : Promise.resolve({ mode: 'none', reason: 'turned off by sandbox.enabled in the project config' });
  }

  private async readGitFacts(cwd: string): Promise<GitFacts | undefined> {
    return gitFacts(cwd, { sandbox: await this.tools.sandbox, policy: this.tools.sandboxPolicy, env: this.parts.env });
  }

  /** Logged once per daemon (the same agent file error is met at every turn). */
  private logOnce(line: string): void {
    const { warned } = this.parts;
    if (!warned.has(line)) (warned.add(line), this.log(line));
  }
}
