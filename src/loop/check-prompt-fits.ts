import { ProviderError } from '../providers/provider-error.js';
import { compactionThresholds } from './compaction-thresholds.js';
import { estimateMessageTokens, loadTokenizer, ROUGH_COUNT_SHORTFALL, tokenizerLoaded } from './estimate-tokens.js';
import type { LoopContext } from './loop-context.js';

/**
 * Before a turn's first request: a prompt that alone is larger than the model's usable
 * window (the context window less the room kept for the answer) cannot be answered, and
 * compaction cannot help (it keeps the newest message verbatim). Returns the error that
 * ends the turn, saying so, instead of a failed compaction followed by a request the
 * vendor refuses; undefined when the prompt fits.
 */
export async function checkPromptFits(ctx: LoopContext): Promise<ProviderError | undefined> {
  const prompt = ctx.conversation.messages.at(-1);
  if (prompt?.role !== 'user') return undefined;
  const { model } = ctx.turn;
  const { compactAt } = compactionThresholds(model.contextWindow, model.maxOutputTokens);
  const usable = Math.floor(compactAt / 0.9);
  // The rough count can only fall short by ROUGH_COUNT_SHORTFALL: below that, no tokenizer is needed.
  if (!tokenizerLoaded()) {
    if (estimateMessageTokens(prompt) * ROUGH_COUNT_SHORTFALL <= usable) return undefined;
    await loadTokenizer();
  }
  const tokens = estimateMessageTokens(prompt);
  if (tokens <= usable) return undefined;
  return new ProviderError({
    kind: 'context_overflow',
    provider: model.model.provider,
    model: model.model.modelId,
    message:
      `the prompt is too large for ${model.ref}: about ${tokens} tokens, where its context window holds ${model.contextWindow} ` +
      `(${model.contextWindow - usable} kept for the answer); send a shorter prompt, point the agent at a file to read instead, or use a model with a larger window`,
  });
}
