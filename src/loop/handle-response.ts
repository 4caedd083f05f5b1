import type { ToolCallPart } from '../providers/message.js';
import type { Usage } from '../providers/usage.js';
import { answerUnrun, commitAssistant, commitPartial, commitTools, commitUser } from './commit-steps.js';
import { compactIfNeeded } from './compact-if-needed.js';
import { dispatchToolCalls } from './dispatch-tool-calls.js';
import type { LoopContext } from './loop-context.js';
import type { LoopResult } from './loop-event.js';
import type { LoopState } from './loop-state.js';
import { MAX_TOKENS_RECOVERIES, prepareMaxTokensRecovery, resumeMessage } from './recover-max-tokens.js';
import type { ModelResponse } from './request-model.js';
import { trackResponseCost } from './track-response-cost.js';

const INTERRUPTED_CALL = 'Skipped: the user sent a new message before this tool call ran.';
const CANCELLED_CALL = 'Not run: the turn was cancelled.';

/**
 * Decides what follows one response: end the turn (a LoopResult), or go on to the next
 * model request ('continue') after committing the message and running its tools.
 */
export async function handleResponse(ctx: LoopContext, state: LoopState, response: ModelResponse): Promise<LoopResult | 'continue'> {
  const priced = response.usage ? { usage: response.usage, costUsd: trackResponseCost(ctx, response.model, response.usage) } : undefined;
  const answered = { model: response.model.ref, ...priced };
  const { message } = response;

  if (response.aborted) {
    await commitPartial(ctx, message, CANCELLED_CALL, answered);
    return { stopReason: 'cancelled', lastMessage: message.content.length > 0 ? message : state.lastMessage };
  }
  if (response.interrupted) {
    await commitPartial(ctx, message, INTERRUPTED_CALL, answered);
    return 'continue';
  }
  if (response.error) {
    if (response.error.kind === 'context_overflow' && !state.overflowRetried && message.content.length === 0) {
      state.overflowRetried = true;
      if (await compactIfNeeded(ctx, state, true)) return 'continue';
    }
    await commitPartial(ctx, message, `Not run: the model response failed (${response.error.message}).`, answered);
    ctx.port.emit({ type: 'notice', level: 'error', message: response.error.message });
    return { stopReason: 'end_turn', lastMessage: state.lastMessage, error: response.error };
  }

  const reason = response.stop?.unified ?? 'end_turn';
  if (reason === 'max_tokens') return recoverMaxTokens(ctx, state, response, priced);

  state.lastMessage = message;
  await commitAssistant(ctx, message, 'complete', answered);
  if (priced) ctx.conversation.markUsage(priced.usage);
  const calls = message.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
  if (calls.length > 0) {
    await runCalls(ctx, calls);
    return 'continue';
  }
  if (reason === 'pause') return 'continue';
  if (reason === 'end_turn') {
    // A steer that arrived during the last response is delivered before stopping.
    const steering = ctx.port.take('steering');
    const next = steering.length > 0 ? steering : ctx.port.take('followUp');
    if (next.length > 0) {
      for (const m of next) await commitUser(ctx, m);
      return 'continue';
    }
  }
  return { stopReason: reason === 'refusal' ? 'refusal' : 'end_turn', lastMessage: message };
}

/** Never runs a call whose arguments were cut off; resumes mid-thought at most three times a turn. */
async function recoverMaxTokens(
  ctx: LoopContext,
  state: LoopState,
  response: ModelResponse,
  priced: { usage: Usage; costUsd: number } | undefined,
): Promise<LoopResult | 'continue'> {
  const { keep, dropped } = prepareMaxTokensRecovery(response.message);
  state.lastMessage = keep;
  await commitAssistant(ctx, keep, 'complete', { model: response.model.ref, ...priced });
  const calls = keep.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
  if (state.recoveries >= MAX_TOKENS_RECOVERIES) {
    if (calls.length > 0) await commitTools(ctx, answerUnrun(calls, 'Not run: the response hit the output limit.'), 'complete');
    return { stopReason: 'max_tokens', lastMessage: keep };
  }
  state.recoveries++;
  if (calls.length > 0) await runCalls(ctx, calls);
  await commitUser(ctx, resumeMessage(dropped));
  return 'continue';
}

async function runCalls(ctx: LoopContext, calls: ToolCallPart[]): Promise<void> {
  const { signal } = ctx.turn;
  const results = await dispatchToolCalls(calls, { ...ctx.tools(), refusal: ctx.turn.refusal }, signal);
  await commitTools(ctx, results, signal.aborted ? 'interrupted' : 'complete');
}
