import { randomUUID } from 'node:crypto';
import { contextTokens } from '../providers/usage.js';
import { ResponseAccumulator, type AccumulatedResponse } from './accumulate-response.js';
import type { LoopContext } from './loop-context.js';

/**
 * One provider request and its streamed response: forwards deltas as events and
 * returns the accumulated message. It never throws: failures and aborts are in the
 * result, with whatever content arrived before them.
 */
export async function runTurn(ctx: LoopContext): Promise<AccumulatedResponse & { aborted: boolean }> {
  const messageId = randomUUID();
  const accumulator = new ResponseAccumulator();
  const stream = ctx.model.stream(
    {
      model: ctx.model.modelId,
      system: ctx.system,
      messages: ctx.history,
      tools: ctx.tools,
      ...(ctx.maxTokens !== undefined ? { maxTokens: ctx.maxTokens } : {}),
      ...(ctx.temperature !== undefined ? { temperature: ctx.temperature } : {}),
      cacheMessages: true,
    },
    ctx.signal,
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
  if (result.usage) {
    const costUsd = ctx.price(result.usage);
    ctx.emit({
      type: 'usage',
      usage: result.usage,
      model: ctx.modelRef,
      costUsd,
      sessionCostUsd: ctx.sessionCostUsd() + costUsd,
      contextTokens: contextTokens(result.usage),
      contextWindow: ctx.contextWindow,
    });
  }
  const aborted = ctx.signal.aborted || result.error?.kind === 'aborted';
  return { ...result, aborted };
}
