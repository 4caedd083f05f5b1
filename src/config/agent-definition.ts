/**
 * What an agent may do to the world: `full` edits files and runs commands, `read` only
 * reads, searches and fetches, `search` only reads and searches.
 */
export type AgentAccess = 'full' | 'read' | 'search';

/**
 * One agent (ACP session mode): a role prompt, optional model settings and the tools it
 * may use. Built-in agents come from builtin-agents.ts; config.json `agents` and
 * `agents/*.md` files add or change them (see loadAgents).
 */
export interface AgentDefinition {
  /** Unique name, the mode id (`build`, `plan`, `explore`, or the user's own). */
  name: string;
  /** One line for mode pickers and for the model when it delegates. */
  description: string;
  /** The role prompt, first in the system prompt. */
  prompt: string;
  /** `provider/model` for this agent; the session's model when unset. */
  model?: string;
  /** Sampling temperature, 0 to 2; the vendor default when unset. */
  temperature?: number;
  /** Most model requests per turn; the config's `maxTurns` when unset. */
  maxTurns?: number;
  access: AgentAccess;
  /** Allowlist of tool names, narrowing what `access` allows; every tool `access` allows when unset. */
  tools?: string[];
  /** Where it was last defined: `builtin`, `config`, or the absolute path of its `.md` file. */
  source: 'builtin' | 'config' | (string & {});
}
