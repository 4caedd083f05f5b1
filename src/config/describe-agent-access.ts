import type { AgentDefinition } from './agent-definition.js';

const ACCESS_LABEL: Record<AgentDefinition['access'], string> = {
  full: 'full access: edits files and runs commands',
  read: 'read-only: reads, searches and fetches web pages',
  search: 'search-only: reads and searches',
};

/**
 * What an agent may really do, from its effective definition (access level and tool
 * list), for mode pickers: a definition changed by config or an agent file can never keep
 * showing the built-in's promise. E.g. `read-only: reads, searches and fetches web pages`
 * or `full access: edits files and runs commands; tools: read, bash`.
 */
export function describeAgentAccess(agent: Pick<AgentDefinition, 'access' | 'tools'>): string {
  const tools = agent.tools === undefined ? '' : `; tools: ${agent.tools.length > 0 ? agent.tools.join(', ') : 'none'}`;
  return ACCESS_LABEL[agent.access] + tools;
}

/** A short label for the mode name, e.g. `plan (read-only)`. */
export function agentModeName(agent: Pick<AgentDefinition, 'name' | 'access'>): string {
  const short = agent.access === 'full' ? 'full access' : agent.access === 'read' ? 'read-only' : 'search-only';
  return `${agent.name} (${short})`;
}
