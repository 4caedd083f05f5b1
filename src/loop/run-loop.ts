import { budgetToolResults } from './budget-tool-results.js';
import { checkPromptFits } from './check-prompt-fits.js';
import { commitUser } from './commit-steps.js';
import { compactIfNeeded } from './compact-if-needed.js';
import { handleResponse } from './handle-response.js';
import type { LoopContext } from './loop-context.js';
import type { LoopResult } from './loop-event.js';
import { newLoopState } from './loop-state.js';
import { requestWithFallback } from './request-with-fallback.js';
import { checkStopConditions } from './stop-conditions.js';

/**
 * The query loop for one prompt: before each model request take up a reloaded
 * configuration, check cancellation, the budget and the request limit, deliver
 * steering, compact if needed and trim old tool results; then stream, commit, run
 * tools, and go again until the model stops.
 * The caller has already committed the user's message to the conversation.
 */
export async function runLoop(ctx: LoopContext): Promise<LoopResult> {
  const state = newLoopState();
  for (;;) {
    // A configuration reloaded since the last request applies from this one.
    if (state.requests > 0) ctx.turn = await ctx.port.settingsForNextRequest(ctx.turn);
    const stop = checkStopConditions({
      signal: ctx.turn.signal,
      requestsMade: state.requests,
      maxTurns: ctx.turn.maxTurns,
      sessionUsd: ctx.cost.sessionUsd,
      budgetUsd: ctx.turn.budgetUsd,
    });
    if (stop?.stop === 'cancelled') return { stopReason: 'cancelled', lastMessage: state.lastMessage };
    if (stop) {
      ctx.port.emit({ type: 'notice', level: 'warning', message: stop.message });
      return stop.stop === 'budget_exceeded'
        ? { stopReason: 'end_turn', lastMessage: state.lastMessage, budgetExceeded: stop.message }
        : { stopReason: 'max_turn_requests', lastMessage: state.lastMessage };
    }
    for (const message of ctx.port.take('steering')) await commitUser(ctx, message);
    const tooLarge = state.requests === 0 ? await checkPromptFits(ctx) : undefined;
    if (tooLarge) {
      ctx.port.emit({ type: 'notice', level: 'error', message: tooLarge.message });
      return { stopReason: 'end_turn', lastMessage: state.lastMessage, error: tooLarge };
    }
    await compactIfNeeded(ctx, state);
    const response = await requestWithFallback(ctx, budgetToolResults([...ctx.conversation.messages], ctx.turn.toolResultBudget));
    state.requests++;
    const outcome = await handleResponse(ctx, state, response);
    if (outcome !== 'continue') return outcome;
  }
}
