import type { Access } from '../tools/tool.js';
import type { AgentAccess, AgentDefinition } from '../config/agent-definition.js';

/** What each agent access level lets a tool do; `full` allows everything. */
const ALLOWED: Record<Exclude<AgentAccess, 'full'>, ReadonlySet<Access>> = {
  // Reading the web (web_fetch) changes nothing locally, so a planning agent may research.
  read: new Set<Access>(['read', 'search', 'network']),
  search: new Set<Access>(['read', 'search']),
};

/**
 * Whether `agent` may use `tool`: its access level must allow what the tool does, and
 * its `tools` allowlist, when set, must name the tool. The loop asks twice: to filter the
 * tools sent to the model, and again at dispatch, so a call to a tool the model was never
 * offered (a hallucinated or stale name) is refused too.
 */
export function agentAllowsTool(
  agent: Pick<AgentDefinition, 'access' | 'tools'>,
  tool: { name: string; access: Access },
): boolean {
  if (agent.tools !== undefined && !agent.tools.includes(tool.name)) return false;
  return agent.access === 'full' || ALLOWED[agent.access].has(tool.access);
}
