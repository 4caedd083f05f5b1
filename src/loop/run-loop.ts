import type { AssistantMessage, ToolCallPart, UserMessage } from '../providers/message.js';
import type { Usage } from '../providers/usage.js';
import type { LoopContext } from './loop-context.js';
import type { LoopResult, TurnStopReason } from './loop-event.js';
import { runTurn } from './run-turn.js';

/**
 * The query loop for one prompt: stream a response, commit it, run its tool calls,
 * and go again until the model stops, the turn limit is reached or the user cancels.
 * The caller has already committed the user's message to `ctx.history`.
 */
export async function runLoop(ctx: LoopContext): Promise<LoopResult> {
  let lastMessage: AssistantMessage | undefined;
  for (let request = 0; request < ctx.maxTurns; request++) {
    if (ctx.signal.aborted) return { stopReason: 'cancelled', lastMessage };
    for (const message of ctx.takeSteering()) commitUser(ctx, message);
    const response = await runTurn(ctx);
    const hasContent = response.message.content.length > 0;

    if (response.aborted) {
      if (hasContent) commitAssistant(ctx, response.message, 'interrupted', response);
      return { stopReason: 'cancelled', lastMessage: hasContent ? response.message : lastMessage };
    }
    if (response.error) {
      // Keep what streamed before the failure; the turn ends with the typed error.
      if (hasContent) commitAssistant(ctx, response.message, 'interrupted', response);
      ctx.emit({ type: 'notice', level: 'error', message: response.error.message });
      return { stopReason: 'end_turn', lastMessage, error: response.error };
    }

    lastMessage = response.message;
    commitAssistant(ctx, response.message, 'complete', response);
    const reason = response.stop?.unified ?? 'end_turn';
    const calls = response.message.content.filter((p): p is ToolCallPart => p.type === 'tool_call');

    if (calls.length > 0 && reason !== 'max_tokens') {
      const results = await ctx.runTools(calls, response.message, ctx.signal);
      ctx.history.push(results);
      ctx.commit(results, { status: ctx.signal.aborted ? 'interrupted' : 'complete' });
      continue;
    }
    if (reason === 'pause') continue;
    const followUp = reason === 'end_turn' ? ctx.takeFollowUp() : undefined;
    if (followUp) {
      commitUser(ctx, followUp);
      continue;
    }
    return { stopReason: mapStopReason(reason), lastMessage };
  }
  return { stopReason: 'max_turn_requests', lastMessage };
}

function commitUser(ctx: LoopContext, message: UserMessage): void {
  ctx.history.push(message);
  ctx.commit(message, { status: 'complete' });
}

function commitAssistant(
  ctx: LoopContext,
  message: AssistantMessage,
  status: 'complete' | 'interrupted',
  response: { usage?: Usage | undefined },
): void {
  ctx.history.push(message);
  const usage = response.usage;
  ctx.commit(message, usage ? { status, usage, costUsd: ctx.price(usage) } : { status });
}

function mapStopReason(reason: string): TurnStopReason {
  if (reason === 'max_tokens') return 'max_tokens';
  if (reason === 'refusal') return 'refusal';
  return 'end_turn';
}
