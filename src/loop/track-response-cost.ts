import { contextTokens, type Usage } from '../providers/usage.js';
import type { LoopContext } from './loop-context.js';
import type { LoopState } from './loop-state.js';

/** Prices one response, adds it to the session and daemon totals, and reports it. Returns its USD. */
export function trackResponseCost(ctx: LoopContext, state: LoopState, usage: Usage): number {
  const costUsd = ctx.price(usage);
  ctx.cost.add(costUsd, usage);
  state.turnUsd += costUsd;
  ctx.emit({
    type: 'usage',
    usage,
    model: ctx.modelRef,
    costUsd,
    turnCostUsd: state.turnUsd,
    sessionCostUsd: ctx.cost.sessionUsd,
    daemonCostUsd: ctx.cost.daemonUsd,
    contextTokens: contextTokens(usage),
    contextWindow: ctx.contextWindow,
  });
  return costUsd;
}
