import type { AgentDefinition } from '../config/agent-definition.js';
import type { ProjectSettings } from '../config/project-settings.js';
import { agentAllowsTool } from '../loop/agent-allows-tool.js';
import { buildSystemPrompt } from '../config/build-system-prompt.js';
import { findAgentsFiles } from '../config/find-agents-files.js';
import type { GitFacts } from './git-facts.js';
import type { TurnModel } from '../loop/loop-context.js';
import type { DaemonCostTotals } from '../loop/track-cost.js';
import type { LanguageModel } from '../providers/language-model.js';
import type { Usage } from '../providers/usage.js';
import type { SessionRecord } from '../store/store.js';
import type { McpServersView } from '../tools/mcp/wait-for-mcp-servers.js';
import type { Tool } from '../tools/tool.js';
import { agentConstraints, constraintRefusal } from './agent-constraints.js';
import { ModelNotConfiguredError } from './model-not-configured-error.js';
import { createToolDispatch, sessionAccessPolicy, type ToolRuntimeOptions } from './create-tool-dispatch.js';
import type { SessionServices } from './session-services.js';

/** What the daemon knows about a model, for context and cost accounting. */
export interface ModelFacts {
  contextWindow: number;
  maxOutputTokens: number;
  price(usage: Usage): number;
}

export interface SessionServicesOptions {
  /** The project directory's settings these services apply. */
  settings: ProjectSettings;
  /** `provider/model` used when a session has not chosen one; undefined when none is configured. */
  defaultModel: string | undefined;
  /** The models a session may pick. */
  modelChoices(): Array<{ value: string; name: string }>;
  /** The agent new sessions start with. */
  defaultMode: string;
  /** Builds the model for `provider/model`; throws with a clear message when it cannot. */
  createModel(ref: string): LanguageModel;
  /** `provider/model` that takes a request over when the session's model stays unavailable (config `fallbackModel`). */
  fallbackModel: string | undefined;
  modelFacts(ref: string): ModelFacts;
  /** Explains how to configure a provider, for the error when none is. */
  setupHelp: string;
  /** The agents of a project directory (built-ins, config, agent files). */
  loadAgents(cwd: string): AgentDefinition[];
  /** Skills listed in the system prompt, for a project directory. */
  skills(cwd: string): Array<{ name: string; description: string }>;
  /** Branch and working-tree summary of a directory (read from files and sandboxed git). */
  gitFacts(cwd: string): Promise<GitFacts | undefined>;
  /** The user's config directory (global AGENTS.md). */
  userConfigDir: string;
  costTotals: DaemonCostTotals;
  log(line: string): void;
  /** The daemon's MCP servers, for a turn to wait for its session's. */
  mcpServers: McpServersView;
  /** Tools, permissions and hooks for every session. */
  tools: ToolRuntimeOptions;
}

/** Wires one project's config, providers, agents, tools and the model catalog into what its sessions need. */
export function createSessionServices(options: SessionServicesOptions): SessionServices {
  const agentFor = (agents: AgentDefinition[], mode: string): AgentDefinition =>
    agents.find((a) => a.name === mode) ?? agents.find((a) => a.name === 'build') ?? agents[0]!;
  // A sub-agent also answers to every ancestor's agent (its record's meta carries them).
  const refusal = (record: SessionRecord, agent: AgentDefinition, tool: Tool): string | undefined =>
    agentAllowsTool(agent, tool)
      ? constraintRefusal(agentConstraints(record), tool)
      : `The ${agent.name} agent (${agent.access} access) may not use ${tool.name}. Switch to an agent that may (session/set_mode), or do without it.`;

  // Git facts are read once per session, like the status "at the start of the conversation"
  // other agents show: it keeps git off every turn and the system prompt stable for caching.
  const gitBySession = new Map<string, Promise<GitFacts | undefined>>();
  // An AGENTS.md left out or cut is said once, not at every model request.
  const reported = new Set<string>();
  const reportOnce = ({ file, message }: { file: string; message: string }): void => {
    const line = `${file}: ${message}`;
    if (!reported.has(line)) (reported.add(line), options.log(line));
  };

  /** A model with its facts; `setting` names where the ref came from for the error. */
  const turnModel = (ref: string, setting: string): TurnModel => {
    let model: LanguageModel;
    try {
      model = options.createModel(ref);
    } catch (error) {
      const which = setting === 'model' ? `model ${ref}` : `${setting} ${ref}`;
      throw new ModelNotConfiguredError(`${which} cannot be used: ${(error as Error).message}`);
    }
    const facts = options.modelFacts(ref);
    return { ref, model, contextWindow: facts.contextWindow, maxOutputTokens: facts.maxOutputTokens, price: facts.price };
  };

  return {
    settings: options.settings,
    defaultModel: options.defaultModel,
    modelChoices: options.modelChoices,
    defaultMode: options.defaultMode,
    sandbox: options.tools.sandbox,
    costTotals: options.costTotals,
    mcpServers: options.mcpServers,
    log: options.log,
    resolveModel(sessionModel) {
      const ref = sessionModel ?? options.defaultModel;
      if (!ref) throw new ModelNotConfiguredError(`no model is configured.\n${options.setupHelp}`);
      const primary = turnModel(ref, 'model');
      const fallbackRef = options.fallbackModel;
      if (fallbackRef === undefined || fallbackRef === ref) return primary;
      return { ...primary, fallback: turnModel(fallbackRef, 'fallbackModel') };
    },
    agents: (record) => options.loadAgents(record.cwd),
    agent: (record, agents = options.loadAgents(record.cwd)) => agentFor(agents, record.mode),
    async systemPrompt(record, agent) {
      let git$ = gitBySession.get(record.id);
      if (!git$) gitBySession.set(record.id, (git$ = options.gitFacts(record.cwd)));
      const [agentsFiles, git] = await Promise.all([findAgentsFiles(record.cwd, options.userConfigDir, reportOnce), git$]);
      return buildSystemPrompt({
        rolePrompt: agent.prompt,
        agentsFiles,
        skills: options.skills(record.cwd),
        cwd: record.cwd,
        ...(git ? { git } : {}),
      });
    },
    toolSpecs(record, agent) {
      const allowed = options.tools.registry
        .list(record.id)
        .filter((entry) => refusal(record, agent, entry.tool) === undefined)
        .map((entry) => entry.tool.name);
      return options.tools.registry.specs({ sessionId: record.id, names: allowed });
    },
    refusal,
    accessPolicy: (sessionId) => sessionAccessPolicy(options.tools, sessionId),
    toolDispatch: (host) => createToolDispatch(host, options.tools),
  };
}
