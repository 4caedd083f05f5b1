import type { ReasoningTags } from './think-tag-splitter.js';

/**
 * How a provider or model marks reasoning inside its answer text (config `reasoningTag`):
 * a tag name (`"think"` means `<think>…</think>`), the two tags spelled out, or false for
 * none (the text is shown as it comes). `startsInside` says the response begins inside a
 * block because the chat template already wrote the opening tag (see ReasoningTags); when
 * left out it is what agentd knows of the model family, else false.
 */
export type ReasoningTagSetting = string | false | { open: string; close: string; startsInside?: boolean };

/** A model family that writes `<think>…</think>` into `content` when the server does not extract it. */
interface KnownTagFamily {
  /** Matched case-insensitively against the model id (`deepseek-r1:7b`, `Qwen/QwQ-32B`, …). */
  pattern: RegExp;
  /** Whether the family's chat template opens the block in the prompt. */
  startsInside: boolean;
}

/**
 * The open reasoning models whose answers carry `<think>` tags, on by default. vLLM
 * lists them with the parser that extracts their reasoning
 * (https://docs.vllm.ai/en/latest/features/reasoning_outputs.html: `deepseek_r1` for the
 * DeepSeek R1 series and QwQ-32B, `qwen3` for Qwen3); without `--reasoning-parser` (vLLM),
 * with `--reasoning-format none` (llama.cpp) or on an Ollama without `think` support the
 * tags arrive inside `content`. Whether the template opens the block is from SGLang's
 * reasoning parser table (https://docs.sglang.ai/advanced_features/separate_reasoning.html:
 * DeepSeek-R1 starts without `<think>`, R1-0528 writes both tags) and the model cards:
 * QwQ-32B's template adds `<think>\n` (https://huggingface.co/Qwen/QwQ-32B, "Enforce
 * Thoughtful Output"), as do the Qwen3 thinking models, whose output "may contain only
 * `</think>`" (https://huggingface.co/Qwen/Qwen3-235B-A22B-Thinking-2507); the hybrid Qwen3
 * models write `<think>` themselves, or nothing when thinking is off
 * (https://huggingface.co/Qwen/Qwen3-8B). Starting inside accepts both forms.
 * QwQ-32B-Preview wrote no tags at all and is left out. The first match wins.
 */
const knownTagFamilies: readonly KnownTagFamily[] = [
  // DeepSeek-R1, R1-0528, the R1-Distill-Qwen/Llama models, Ollama's `deepseek-r1:<size>`, Perplexity's R1-1776.
  { pattern: /deepseek[-_.]?r1|r1-1776/i, startsInside: true },
  { pattern: /qwq(?!.*preview)/i, startsInside: true },
  { pattern: /qwen3.*thinking/i, startsInside: true },
  { pattern: /qwen3/i, startsInside: false },
];

const defaultTags = { open: '<think>', close: '</think>' };

/**
 * The reasoning tags for one model: the configured setting (model over provider), or
 * `<think>` for a known reasoning family, or undefined for none.
 */
export function resolveReasoningTags(setting: ReasoningTagSetting | undefined, modelId: string): ReasoningTags | undefined {
  if (setting === false) return undefined;
  const family = knownTagFamilies.find((known) => known.pattern.test(modelId));
  if (setting === undefined) return family === undefined ? undefined : { ...defaultTags, startsInside: family.startsInside };
  const startsInside = family?.startsInside ?? false;
  if (typeof setting === 'string') return { open: `<${setting}>`, close: `</${setting}>`, startsInside };
  return { open: setting.open, close: setting.close, startsInside: setting.startsInside ?? startsInside };
}
