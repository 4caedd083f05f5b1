import type { AgentDefinition } from '../config/agent-definition.js';
import type { ProjectSettings } from '../config/project-settings.js';
import type { TurnModel } from '../loop/loop-context.js';
import type { DaemonCostTotals } from '../loop/track-cost.js';
import type { SystemBlock, ToolSpec } from '../providers/request.js';
import type { SessionRecord } from '../store/store.js';
import type { AccessPolicy } from '../tools/access-policy.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import type { McpServersView } from '../tools/mcp/wait-for-mcp-servers.js';
import type { Tool } from '../tools/tool.js';
import type { SessionToolDispatch, ToolHost } from './create-tool-dispatch.js';

/** A model ready for a turn, with what the loop needs to know about it, and the fallback that takes over from it. */
export interface ResolvedModel extends TurnModel {
  fallback?: TurnModel;
}

/**
 * What the SessionManager provides to the sessions of one project directory: built from
 * that directory's settings (the user's config with the project's file laid over it).
 */
export interface SessionServices {
  /** The settings these services were built from. */
  settings: ProjectSettings;
  /** `provider/model` a session uses until it picks one; undefined when none is configured. */
  defaultModel: string | undefined;
  /** The models a session may pick (configured providers only). */
  modelChoices(): Array<{ value: string; name: string }>;
  /** The agent new sessions start with (`manager` in manager mode). */
  defaultMode: string;
  /** Whether bash runs in bubblewrap for these sessions. */
  sandbox: Promise<SandboxInfo>;
  /** The model for a ref (else the configured default); throws ModelNotConfiguredError when none can be used. */
  resolveModel(ref: string | null): ResolvedModel;
  /** Every agent (mode) available in a session's project. */
  agents(record: SessionRecord): AgentDefinition[];
  /** The agent of the session's current mode (`build` when the mode is unknown), from `agents` when already loaded. */
  agent(record: SessionRecord, agents?: AgentDefinition[]): AgentDefinition;
  /** Role prompt, guidance, skills, AGENTS.md, then session facts. */
  systemPrompt(record: SessionRecord, agent: AgentDefinition): Promise<SystemBlock[]>;
  /** The tools the agent may use, as sent to the model. */
  toolSpecs(record: SessionRecord, agent: AgentDefinition): ToolSpec[];
  /** Why the agent may not use a tool (its access, or a parent's constraints on a sub-agent), if it may not. */
  refusal(record: SessionRecord, agent: AgentDefinition, tool: Tool): string | undefined;
  /** What the sandbox hides from a session's bash, which its file tools and MCP roots keep off too. */
  accessPolicy(sessionId: string): AccessPolicy;
  /** Tool dispatch for one session (its permissions, hooks, file state), built once when its first turn starts. */
  toolDispatch(host: ToolHost): Promise<SessionToolDispatch>;
  /** The daemon's MCP servers: a turn waits for those of its session still starting. */
  mcpServers: McpServersView;
  /** Spending of every session of this daemon. */
  costTotals: DaemonCostTotals;
  log(line: string): void;
}
