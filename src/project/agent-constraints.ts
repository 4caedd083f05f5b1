import type { AgentDefinition } from '../config/agent-definition.js';
import { agentAllowsTool } from '../loop/agent-allows-tool.js';
import type { SessionRecord } from '../store/store.js';
import type { Tool } from '../tools/tool.js';

/** What one ancestor's agent allowed, carried on a sub-agent session. */
export type AgentConstraint = Pick<AgentDefinition, 'name' | 'access' | 'tools'>;

/** The session `meta` key holding the ancestors' constraints, so they survive a reload. */
export const AGENT_CONSTRAINTS_KEY = 'agentConstraints';

const ACCESS = new Set(['full', 'read', 'search']);

/**
 * The constraints of every ancestor agent of a session (none for a top-level session).
 * Anything malformed in the stored meta counts as "allows nothing": fail closed.
 */
export function agentConstraints(record: Pick<SessionRecord, 'meta'>): AgentConstraint[] {
  const stored = record.meta[AGENT_CONSTRAINTS_KEY];
  if (stored === undefined) return [];
  if (!Array.isArray(stored)) return [{ name: 'unreadable constraint', access: 'search', tools: [] }];
  return stored.map((entry: unknown) => {
    const { name, access, tools } = (entry ?? {}) as Record<string, unknown>;
    const validTools = tools === undefined || (Array.isArray(tools) && tools.every((t) => typeof t === 'string'));
    if (typeof name !== 'string' || typeof access !== 'string' || !ACCESS.has(access) || !validTools) {
      return { name: 'unreadable constraint', access: 'search', tools: [] };
    }
    return { name, access: access as AgentConstraint['access'], ...(tools !== undefined ? { tools: tools as string[] } : {}) };
  });
}

/** A child's constraints: its parent's own, plus the parent's agent. */
export function childConstraints(parent: Pick<SessionRecord, 'meta'>, parentAgent: AgentConstraint): AgentConstraint[] {
  const own: AgentConstraint = { name: parentAgent.name, access: parentAgent.access, ...(parentAgent.tools ? { tools: [...parentAgent.tools] } : {}) };
  return [...agentConstraints(parent), own];
}

/**
 * Why an ancestor forbids `tool` for this session, if one does: a sub-agent may use a
 * tool only when its own agent and every ancestor's agent allow it.
 */
export function constraintRefusal(constraints: readonly AgentConstraint[], tool: Pick<Tool, 'name' | 'access'>): string | undefined {
  const blocker = constraints.find((constraint) => !agentAllowsTool(constraint, tool));
  if (!blocker) return undefined;
  return (
    `This sub-agent may not use ${tool.name}: the ${blocker.name} agent that started it (${blocker.access} access` +
    `${blocker.tools ? `, tools ${blocker.tools.join(', ') || 'none'}` : ''}) does not allow it, and a sub-agent never gets more than its parent. ` +
    'Do without it, or report back so the parent can do it.'
  );
}
