import { justifiesFallback } from '../providers/http/with-resilience.js';
import type { ModelMessage } from '../providers/message.js';
import type { LoopContext } from './loop-context.js';
import { requestModel, type ModelResponse } from './request-model.js';

/**
 * One model request, given to the turn's fallback model when the primary stays
 * unavailable (retries spent or its circuit open) before it produced anything. The
 * response names the model that gave it, so that model's prices, output limit, window and
 * protocol apply to it, and the store and a replay name it too.
 */
export async function requestWithFallback(ctx: LoopContext, messages: ModelMessage[]): Promise<ModelResponse> {
  const primary = ctx.turn.model;
  const response = await requestModel(ctx, primary, messages);
  const fallback = ctx.turn.fallback;
  const failed = response.error;
  if (!fallback || !failed || response.aborted || response.interrupted || response.message.content.length > 0 || !justifiesFallback(failed)) {
    return response;
  }
  ctx.port.emit({ type: 'fallback', from: primary.ref, to: fallback.ref, error: failed });
  return requestModel(ctx, fallback, messages);
}
