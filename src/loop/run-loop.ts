import { budgetToolResults } from './budget-tool-results.js';
import { commitUser } from './commit-steps.js';
import { compactIfNeeded } from './compact-if-needed.js';
import { handleResponse } from './handle-response.js';
import type { LoopContext } from './loop-context.js';
import type { LoopResult } from './loop-event.js';
import { newLoopState } from './loop-state.js';
import { runTurn } from './run-turn.js';
import { checkStopConditions } from './stop-conditions.js';

/**
 * The query loop for one prompt: before each model request check cancellation, the
 * budget and the request limit, deliver steering, compact if needed and trim old tool
 * results; then stream, commit, run tools, and go again until the model stops.
 * The caller has already committed the user's message to `ctx.history`.
 */
export async function runLoop(ctx: LoopContext): Promise<LoopResult> {
  const state = newLoopState();
  for (;;) {
    const stop = checkStopConditions({
      signal: ctx.signal,
      requestsMade: state.requests,
      maxTurns: ctx.maxTurns,
      sessionUsd: ctx.cost.sessionUsd,
      budgetUsd: ctx.budgetUsd,
    });
    if (stop?.stop === 'cancelled') return { stopReason: 'cancelled', lastMessage: state.lastMessage };
    if (stop) {
      ctx.emit({ type: 'notice', level: 'warning', message: stop.message });
      return stop.stop === 'budget_exceeded'
        ? { stopReason: 'end_turn', lastMessage: state.lastMessage, budgetExceeded: stop.message }
        : { stopReason: 'max_turn_requests', lastMessage: state.lastMessage };
    }
    for (const message of ctx.takeSteering()) commitUser(ctx, message);
    await compactIfNeeded(ctx, state);
    const response = await runTurn(ctx, budgetToolResults(ctx.history, ctx.toolResultBudget));
    state.requests++;
    const outcome = await handleResponse(ctx, state, response);
    if (outcome !== 'continue') return outcome;
  }
}
