import { randomUUID } from 'node:crypto';
import { convertHistoryForModel } from '../providers/convert-history-for-model.js';
import type { ModelMessage } from '../providers/message.js';
import { ResponseAccumulator, TEXT_PART_SEPARATOR, type AccumulatedResponse } from './accumulate-response.js';
import type { LoopContext, TurnModel } from './loop-context.js';

/** One response, and how it ended when it did not end by itself. */
export interface ModelResponse extends AccumulatedResponse {
  /** The model that gave it: its prices, output limit and window apply, and the store names it. */
  model: TurnModel;
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
export async function requestModel(ctx: LoopContext, to: TurnModel, messages: ModelMessage[]): Promise<ModelResponse> {
  const { turn } = ctx;
  const { model } = to;
  const messageId = randomUUID();
  const accumulator = new ResponseAccumulator();
  const signal = turn.requestSignal();
  const stream = model.stream(
    {
      model: model.modelId,
      system: turn.system,
      // Another model's reasoning and vendor data never reach this one (a fallback, a model switch).
      messages: convertHistoryForModel(messages, model),
      tools: turn.tools,
      maxTokens: to.maxOutputTokens,
      ...(turn.temperature !== undefined ? { temperature: turn.temperature } : {}),
      ...(turn.thinking !== undefined ? { thinking: turn.thinking } : {}),
      cacheMessages: true,
    },
    signal,
  );
  for await (const event of stream) {
    const separated = event.type === 'text-delta' && accumulator.opensLaterTextPart();
    accumulator.push(event);
    switch (event.type) {
      case 'text-delta':
        ctx.port.emit({ type: 'text_delta', messageId, text: separated ? TEXT_PART_SEPARATOR + event.text : event.text });
        break;
      case 'thinking-delta':
        ctx.port.emit({ type: 'thinking_delta', messageId, text: event.text });
        break;
      case 'notice':
        ctx.port.emit({ type: 'notice', level: 'warning', message: event.message });
        break;
      case 'retry':
        ctx.port.emit({ type: 'retry', attempt: event.attempt, delayMs: event.delayMs, error: event.error });
        break;
      case 'breaker':
        ctx.port.emit({ type: 'breaker', provider: event.provider, state: event.state });
        break;
      default:
        break;
    }
  }
  const result = accumulator.result(model.protocol);
  const aborted = turn.signal.aborted;
  const interrupted = !aborted && signal.aborted;
  return { ...result, message: { ...result.message, model: to.ref }, model: to, aborted, interrupted };
}
