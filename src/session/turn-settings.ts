import type { AgentDefinition } from '../config/agent-definition.js';
import type { TurnSettings } from '../loop/loop-context.js';
import type { SessionRecord } from '../store/store.js';
import type { RunOverrides } from './run-overrides.js';
import type { ResolvedModel, SessionServices } from './session-services.js';

/** Model requests per turn when neither config `maxTurns` nor the agent says. */
export const DEFAULT_MAX_TURNS = 50;
/** Characters of older tool results kept in each request (the store keeps all). */
export const TOOL_RESULT_BUDGET = 50_000;

/**
 * The budget (US dollars) a session's spending is held to: a run's own for that run's turn,
 * else a sub-agent's share of its parent's sub-agent budget (in its record), else the config's.
 */
export function sessionBudgetUsd(services: SessionServices, record: SessionRecord, run?: RunOverrides): number | undefined {
  if (run?.budgetUsd !== undefined) return run.budgetUsd;
  // Only a sub-agent's record carries a budget: a top-level record's `budgetUsd` (written by
  // older scheduled runs) is ignored.
  const ownBudget = record.meta.parentSessionId !== undefined ? record.meta.budgetUsd : undefined;
  return ownBudget ?? services.settings.config.budgetUsd;
}

/**
 * What one turn of a session runs with: its agent's prompt, tools and limits, and the model
 * resolved for it; a run's own budget (`run`) for that run's turn only.
 */
export async function turnSettings(
  services: SessionServices,
  record: SessionRecord,
  agent: AgentDefinition,
  model: ResolvedModel,
  signals: { signal: AbortSignal; requestSignal(): AbortSignal },
  run?: RunOverrides,
): Promise<TurnSettings> {
  // Read from the project's effective config here, once per turn, not copied along the way.
  const { config } = services.settings;
  const budgetUsd = sessionBudgetUsd(services, record, run);
  const { fallback, ...primary } = model;
  return {
    model: primary,
    ...(fallback ? { fallback } : {}),
    system: await services.systemPrompt(record, agent),
    tools: services.toolSpecs(record, agent),
    refusal: (tool) => services.refusal(record, agent, tool),
    maxTurns: agent.maxTurns ?? config.maxTurns ?? DEFAULT_MAX_TURNS,
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(config.thinking !== undefined ? { thinking: config.thinking } : {}),
    toolResultBudget: TOOL_RESULT_BUDGET,
    signal: signals.signal,
    requestSignal: signals.requestSignal,
  };
}
