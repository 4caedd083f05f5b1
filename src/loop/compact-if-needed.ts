import { randomUUID } from 'node:crypto';
import { compactContext } from './compact-context.js';
import { compactionThresholds } from './compaction-thresholds.js';
import { estimateTokens, loadTokenizer, ROUGH_COUNT_SHORTFALL, tokenizerLoaded } from './estimate-tokens.js';
import type { LoopContext } from './loop-context.js';
import type { LoopState } from './loop-state.js';

/**
 * Before a model request: warn at 80% and compact at 90% of the usable window, or
 * compact now when `force` (a context-overflow error, session/compact). The summary is
 * its own provider call; three failures in a row disable compaction for the session.
 */
export async function compactIfNeeded(ctx: LoopContext, state: LoopState, force = false): Promise<boolean> {
  const tracker = ctx.compaction;
  if (tracker.disabled) return false;
  const { model } = ctx.turn;
  const { warnAt, compactAt } = compactionThresholds(model.contextWindow, model.maxOutputTokens);
  // Loading the tokenizer's tables costs more than the rest of a request's preparation: it
  // is loaded only once the rough count could be near the warning, never for a short
  // conversation (most first prompts).
  if (!tokenizerLoaded()) {
    if (!force && ctx.conversation.contextTokens() * ROUGH_COUNT_SHORTFALL < warnAt) return false;
    await loadTokenizer();
  }
  const tokens = ctx.conversation.contextTokens();
  if (!force && tokens < warnAt) return false;
  if (!force && tokens < compactAt) {
    if (!state.warned) {
      state.warned = true;
      ctx.port.emit({ type: 'notice', level: 'warning', message: `The conversation uses ${tokens} of ${model.contextWindow} context tokens; it will be compacted at ${compactAt}.` });
    }
    return false;
  }
  const compactionId = randomUUID();
  ctx.port.emit({ type: 'compaction', compactionId, status: 'started', tokensBefore: tokens });
  try {
    // About 20k recent tokens stay verbatim, or a quarter of a small window.
    const keepTokens = Math.min(20_000, Math.floor(model.contextWindow / 4));
    const result = await compactContext({ model: model.model, history: [...ctx.conversation.messages], signal: ctx.turn.signal, keepTokens });
    if (!result) {
      ctx.port.emit({ type: 'compaction', compactionId, status: 'failed', error: 'nothing old enough to summarize' });
      return false;
    }
    let priced = {};
    if (result.usage) {
      const costUsd = model.price(result.usage);
      ctx.cost.add(costUsd, result.usage);
      priced = { usage: result.usage, costUsd };
    }
    await ctx.port.compacted(result, priced);
    tracker.recordSuccess();
    ctx.port.emit({ type: 'compaction', compactionId, status: 'completed', tokensBefore: tokens, tokensAfter: estimateTokens(ctx.conversation.messages) });
    return true;
  } catch (error) {
    const notice = tracker.recordFailure(error);
    ctx.port.emit({ type: 'compaction', compactionId, status: 'failed', error: (error as Error).message });
    if (notice) ctx.port.emit({ type: 'notice', level: 'warning', message: notice });
    return false;
  }
}
