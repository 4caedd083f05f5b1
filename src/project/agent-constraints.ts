import type { AgentDefinition } from '../config/agent-definition.js';
import { agentAllowsTool } from '../loop/agent-allows-tool.js';
import { AgentConstraintsSchema } from '../store/session-meta.js';
import type { Tool } from '../tools/tool.js';

/** What one ancestor's agent allowed, carried on a sub-agent session. */
export type AgentConstraint = Pick<AgentDefinition, 'name' | 'access' | 'tools'>;

/** A session whose meta may carry its ancestors' constraints (`meta.agentConstraints`), read or not. */
type ConstrainedRecord = { meta: { agentConstraints?: unknown } };

/**
 * The constraints of every ancestor agent of a session (none for a top-level session).
 * Anything malformed in the stored meta counts as "allows nothing": fail closed.
 */
export function agentConstraints(record: ConstrainedRecord): AgentConstraint[] {
  const stored = record.meta.agentConstraints;
  return stored === undefined ? [] : AgentConstraintsSchema.parse(stored);
}

/** A child's constraints: its parent's own, plus the parent's agent. */
export function childConstraints(parent: ConstrainedRecord, parentAgent: AgentConstraint): AgentConstraint[] {
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
