import type { AgentDefinition } from '../config/agent-definition.js';
import type { LoopContext } from '../loop/loop-context.js';
import { CostTracker } from '../loop/track-cost.js';
import { compactionMarker } from './compaction-marker.js';
import type { Session } from './session.js';
import type { ResolvedModel } from './session-services.js';

/** Everything one turn of a session's loop runs with. */
export async function buildLoopContext(
  session: Session,
  agent: AgentDefinition,
  model: ResolvedModel,
  signals: { signal: AbortSignal; requestSignal(): AbortSignal },
): Promise<LoopContext> {
  const { services, writer } = session;
  const record = session.record;
  // A sub-agent carries its share of the sub-agent budget in its own record.
  const ownBudget = record.meta.budgetUsd;
  const budgetUsd = typeof ownBudget === 'number' ? ownBudget : services.budgetUsd;
  return {
    model: model.model,
    modelRef: model.ref,
    system: await services.systemPrompt(record, agent),
    tools: services.toolSpecs(record, agent),
    history: session.history,
    maxTurns: agent.maxTurns ?? services.maxTurns,
    maxTokens: model.maxOutputTokens,
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(services.thinking !== undefined ? { thinking: services.thinking } : {}),
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    toolResultBudget: services.toolResultBudget,
    signal: signals.signal,
    requestSignal: signals.requestSignal,
    emit: (event) => session.publish(event),
    commit: (message, meta) => writer.commit(message, meta, model.ref),
    price: model.price,
    cost: new CostTracker(services.costTotals, record.totalCostUsd),
    usageMark: session.usageMark,
    compaction: {
      tracker: session.compaction,
      apply(result) {
        // The store keeps every message; the marker tells a later load where to resume from.
        const [summary] = result.newHistory;
        if (summary?.role === 'user') {
          const priced = result.usage ? { usage: result.usage, costUsd: model.price(result.usage) } : {};
          writer.commit(summary, { status: 'complete', ...priced, meta: compactionMarker(result, session.history) });
        }
        session.history.splice(0, session.history.length, ...result.newHistory);
      },
    },
    runTools: (calls, message, signal) => services.runTools(session, agent, calls, message, signal),
    takeSteering: () => session.queues.take('steering').map((item) => item.message),
    takeFollowUp: () => session.queues.take('followUp').map((item) => item.message),
  };
}
