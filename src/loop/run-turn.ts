import { randomUUID } from 'node:crypto';
import type { ModelMessage } from '../providers/message.js';
import { ResponseAccumulator, type AccumulatedResponse } from './accumulate-response.js';
import type { LoopContext } from './loop-context.js';

/** One response, and how it ended when it did not end by itself. */
export interface TurnResponse extends AccumulatedResponse {
  /** The user cancelled the whole turn. */
  aborted: boolean;
  /** A steer with `interrupt` cut this response short; the turn goes on. */
  interrupted: boolean;
}

/**
 * One provider request and its streamed response: forwards deltas as events and
 * returns the accumulated message. It never throws: failures, aborts and interrupts
 * are in the result, with whatever content arrived before them.
 */
export async function runTurn(ctx: LoopContext, messages: ModelMessage[]): Promise<TurnResponse> {
  const messageId = randomUUID();
  const accumulator = new ResponseAccumulator();
  const signal = ctx.requestSignal();
  const stream = ctx.model.stream(
    {
      model: ctx.model.modelId,
      system: ctx.system,
      messages,
      tools: ctx.tools,
      ...(ctx.maxTokens !== undefined ? { maxTokens: ctx.maxTokens } : {}),
      ...(ctx.temperature !== undefined ? { temperature: ctx.temperature } : {}),
      ...(ctx.thinking !== undefined ? { thinking: ctx.thinking } : {}),
      cacheMessages: true,
    },
    signal,
  );
  for await (const event of stream) {
    accumulator.push(event);
    switch (event.type) {
      case 'text-delta':
        ctx.emit({ type: 'text_delta', messageId, text: event.text });
        break;
      case 'thinking-delta':
        ctx.emit({ type: 'thinking_delta', messageId, text: event.text });
        break;
      case 'retry':
        ctx.emit({ type: 'retry', attempt: event.attempt, delayMs: event.delayMs, error: event.error });
        break;
      case 'fallback':
        ctx.emit({ type: 'fallback', from: event.from, to: event.to, error: event.error });
        break;
      case 'breaker':
        ctx.emit({ type: 'breaker', provider: event.provider, state: event.state });
        break;
      default:
        break;
    }
  }
  const result = accumulator.result(ctx.model.protocol);
  const aborted = ctx.signal.aborted;
  const interrupted = !aborted && signal.aborted;
  return { ...result, aborted, interrupted };
}
