import type { AgentDefinition } from './agent-definition.js';

const ACCESS_LABEL: Record<AgentDefinition['access'], string> = {
  full: 'full access: edits files and runs commands',
  read: 'read-only: reads, searches and fetches web pages',
  search: 'search-only: reads and searches',
};

const SHORT_LABEL: Record<AgentDefinition['access'], string> = { full: 'full access', read: 'read-only', search: 'search-only' };

/**
 * What an agent may really do, from its effective definition (access level and tool
 * list), for mode pickers: a definition changed by config or an agent file can never keep
 * showing the built-in's promise. E.g. `read-only: reads, searches and fetches web pages`,
 * or with a tool list `full access, only these tools: agent, todo`.
 */
export function describeAgentAccess(agent: Pick<AgentDefinition, 'access' | 'tools'>): string {
  if (agent.tools === undefined) return ACCESS_LABEL[agent.access];
  return `${SHORT_LABEL[agent.access]}, only these tools: ${agent.tools.length > 0 ? agent.tools.join(', ') : 'none'}`;
}

/** A short label for the mode name, e.g. `plan (read-only)`. */
export function agentModeName(agent: Pick<AgentDefinition, 'name' | 'access'>): string {
  return `${agent.name} (${SHORT_LABEL[agent.access]})`;
}
