import { randomUUID } from 'node:crypto';
import { compactContext } from './compact-context.js';
import { compactionThresholds } from './compaction-thresholds.js';
import { contextTokensNow, estimateTokens, loadTokenizer } from './estimate-tokens.js';
import type { LoopContext } from './loop-context.js';
import type { LoopState } from './loop-state.js';

/**
 * Before a model request: warn at 80% and compact at 90% of the usable window, or
 * compact now when `force` (a context-overflow error, session/compact). The summary is
 * its own provider call; three failures in a row disable compaction for the session.
 */
export async function compactIfNeeded(ctx: LoopContext, state: LoopState, force = false): Promise<boolean> {
  const { tracker } = ctx.compaction;
  if (tracker.disabled) return false;
  await loadTokenizer();
  const mark = ctx.usageMark.current;
  const tokens = mark ? contextTokensNow(mark.usage, ctx.history.slice(mark.historyLength)) : estimateTokens(ctx.history);
  const { warnAt, compactAt } = compactionThresholds(ctx.contextWindow, ctx.maxOutputTokens);
  if (!force && tokens < warnAt) return false;
  if (!force && tokens < compactAt) {
    if (!state.warned) {
      state.warned = true;
      ctx.emit({ type: 'notice', level: 'warning', message: `The conversation uses ${tokens} of ${ctx.contextWindow} context tokens; it will be compacted at ${compactAt}.` });
    }
    return false;
  }
  const compactionId = randomUUID();
  ctx.emit({ type: 'compaction', compactionId, status: 'started', tokensBefore: tokens });
  try {
    // About 20k recent tokens stay verbatim, or a quarter of a small window.
    const keepTokens = Math.min(20_000, Math.floor(ctx.contextWindow / 4));
    const result = await compactContext({ model: ctx.model, history: ctx.history, signal: ctx.signal, keepTokens });
    if (!result) {
      ctx.emit({ type: 'compaction', compactionId, status: 'failed', error: 'nothing old enough to summarize' });
      return false;
    }
    if (result.usage) {
      const usd = ctx.price(result.usage);
      ctx.cost.add(usd, result.usage);
      state.turnUsd += usd;
    }
    ctx.compaction.apply(result);
    ctx.usageMark.current = undefined;
    tracker.recordSuccess();
    ctx.emit({ type: 'compaction', compactionId, status: 'completed', tokensBefore: tokens, tokensAfter: estimateTokens(ctx.history) });
    return true;
  } catch (error) {
    const notice = tracker.recordFailure(error);
    ctx.emit({ type: 'compaction', compactionId, status: 'failed', error: (error as Error).message });
    if (notice) ctx.emit({ type: 'notice', level: 'warning', message: notice });
    return false;
  }
}
