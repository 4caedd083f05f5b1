import { contextTokens, type Usage } from '../providers/usage.js';
import type { LoopContext, TurnModel } from './loop-context.js';

/** Prices one response at the rates of the model that gave it, adds it to the session's cost, and reports it. Returns its USD. */
export function trackResponseCost(ctx: LoopContext, model: TurnModel, usage: Usage): number {
  const costUsd = model.price(usage);
  ctx.cost.add(costUsd, usage);
  ctx.port.emit({
    type: 'usage',
    usage,
    model: model.ref,
    costUsd,
    turnCostUsd: ctx.cost.turnUsd,
    sessionCostUsd: ctx.cost.sessionUsd,
    daemonCostUsd: ctx.cost.daemonUsd,
    contextTokens: contextTokens(usage),
    contextWindow: model.contextWindow,
  });
  return costUsd;
}
