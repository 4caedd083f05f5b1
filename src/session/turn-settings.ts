import type { AgentDefinition } from '../config/agent-definition.js';
import type { TurnSettings } from '../loop/loop-context.js';
import type { SessionRecord } from '../store/store.js';
import type { ResolvedModel, SessionServices } from './session-services.js';

/** What one turn of a session runs with: its agent's prompt, tools and limits, and the model resolved for it. */
export async function turnSettings(
  services: SessionServices,
  record: SessionRecord,
  agent: AgentDefinition,
  model: ResolvedModel,
  signals: { signal: AbortSignal; requestSignal(): AbortSignal },
): Promise<TurnSettings> {
  // A sub-agent carries its share of the sub-agent budget in its own record.
  const ownBudget = record.meta.budgetUsd;
  const budgetUsd = typeof ownBudget === 'number' ? ownBudget : services.budgetUsd;
  const { fallback, ...primary } = model;
  return {
    model: primary,
    ...(fallback ? { fallback } : {}),
    system: await services.systemPrompt(record, agent),
    tools: services.toolSpecs(record, agent),
    refusal: (tool) => services.refusal(record, agent, tool),
    maxTurns: agent.maxTurns ?? services.maxTurns,
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(services.thinking !== undefined ? { thinking: services.thinking } : {}),
    toolResultBudget: services.toolResultBudget,
    signal: signals.signal,
    requestSignal: signals.requestSignal,
  };
}
