import { markMidStream } from '../http/mark-mid-stream.js';
import { randomUUID } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import type { Usage } from '../usage.js';
import { geminiStreamError, type GeminiErrorContext } from './gemini-error.js';
import type { GeminiPart, GeminiSignaturePart, GeminiStreamChunk, GeminiUsageMetadata } from './gemini-types.js';
import { mapGeminiBlockReason, mapGeminiStopReason } from './map-gemini-stop-reason.js';

/**
 * The Gemini SSE stream as a pure object: feed it decoded text, collect unified events.
 * It produces nothing after the first `stop` or `error`.
 */
export interface GeminiStreamParser {
  /** Feed the next piece of decoded body text; returns the events it completed. */
  push(text: string): StreamEvent[];
  /** The body ended: returns the closing `usage` + `stop`, or an `error` when the stream was cut short. */
  end(): StreamEvent[];
  /** The transport failed: returns the closing `error`, flagged `midStream` once content was emitted. */
  fail(error: ProviderError): StreamEvent[];
  /** True once a `stop` or `error` was produced. */
  readonly finished: boolean;
}

export interface GeminiStreamParserOptions {
  /** Prefix for call ids when Gemini sends none and the chunk has no `responseId`; random by default. */
  fallbackIdPrefix?: string;
}

/**
 * With `alt=sse` every `data:` line is a whole GenerateContentResponse
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent):
 * text arrives in pieces, function calls arrive whole, `finishReason` sits on the last
 * candidate chunk and `usageMetadata` snapshots may come with any chunk (the last wins).
 * The stream simply ends; there is no closing event, so the stop is emitted by `end()`.
 */
export function parseGeminiStream(context: GeminiErrorContext, options: GeminiStreamParserOptions = {}): GeminiStreamParser {
  let usage: GeminiUsageMetadata | undefined;
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  let callCount = 0;
  let emittedContent = false;
  let finished = false;
  let out: StreamEvent[] = [];
  const fallbackIdPrefix = options.fallbackIdPrefix ?? randomUUID();

  const sse = createParser({ onEvent: (message) => handle(message) });

  function emit(event: StreamEvent): void {
    if (finished) return;
    if (event.type === 'stop' || event.type === 'error') finished = true;
    else if (event.type !== 'usage') emittedContent = true;
    out.push(event);
  }

  function handle(message: EventSourceMessage): void {
    if (finished) return;
    let chunk: GeminiStreamChunk;
    try {
      chunk = JSON.parse(message.data) as GeminiStreamChunk;
    } catch {
      emit({ type: 'error', error: failure(context, 'server', `a chunk that is not JSON: ${message.data.slice(0, 200)}`, emittedContent) });
      return;
    }
    if (chunk.error !== undefined) {
      emit({ type: 'error', error: geminiStreamError(context, chunk.error, emittedContent) });
      return;
    }
    if (chunk.usageMetadata !== undefined) usage = chunk.usageMetadata;
    if (chunk.promptFeedback?.blockReason !== undefined) blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) handlePart(part, chunk.responseId);
    if (candidate?.finishReason !== undefined) finishReason = candidate.finishReason;
  }

  function handlePart(part: GeminiPart, responseId: string | undefined): void {
    const signature = part.thoughtSignature;
    if (part.functionCall !== undefined) {
      const call = part.functionCall;
      // Calls arrive whole; ids are stable per response so the loop can link results.
      const id = call.id ?? `call_${responseId ?? fallbackIdPrefix}_${callCount}`;
      callCount++;
      const args = isObject(call.args) ? call.args : {};
      const providerData: Record<string, unknown> = {};
      if (signature !== undefined) providerData.thoughtSignature = signature;
      if (call.id !== undefined) providerData.functionCallId = call.id;
      emit({ type: 'tool-call-start', id, name: call.name });
      emit({ type: 'tool-call-delta', id, argsDelta: JSON.stringify(args) });
      emit({ type: 'tool-call-end', id, name: call.name, args, ...(Object.keys(providerData).length > 0 ? { providerData } : {}) });
      return;
    }
    if (typeof part.text === 'string' && part.text !== '') {
      emit(part.thought === true ? { type: 'thinking-delta', text: part.text } : { type: 'text-delta', text: part.text });
    }
    if (signature !== undefined) {
      emit({ type: 'thinking-signature', signature, providerData: { geminiPart: signaturePart(part) } });
    }
  }

  function finish(): void {
    if (finishReason !== undefined || blockReason !== undefined) {
      if (usage !== undefined) emit({ type: 'usage', usage: toUsage(usage) });
      emit({
        type: 'stop',
        reason: finishReason !== undefined ? mapGeminiStopReason(finishReason, callCount > 0) : mapGeminiBlockReason(blockReason ?? ''),
      });
    } else {
      emit({ type: 'error', error: failure(context, 'network', 'the stream ended without a finishReason (connection closed early)', emittedContent) });
    }
  }

  function drain(): StreamEvent[] {
    const events = out;
    out = [];
    return events;
  }

  return {
    push(text) {
      if (!finished) sse.feed(text);
      return drain();
    },
    end() {
      if (!finished) finish();
      return drain();
    },
    fail(error) {
      emit({ type: 'error', error: emittedContent ? markMidStream(error) : error });
      return drain();
    },
    get finished() {
      return finished;
    },
  };
}

function signaturePart(part: GeminiPart): GeminiSignaturePart {
  if (part.thought === true) return 'thought';
  if (typeof part.text === 'string') return part.text === '' ? 'empty-text' : 'text';
  return 'bare';
}

/**
 * `promptTokenCount` includes cached content (UsageMetadata docs), so the cache share is
 * taken out of `inputTokens`; tool-use prompt tokens are input too. Output is the
 * visible candidates plus the thoughts, which Gemini counts separately.
 */
function toUsage(metadata: GeminiUsageMetadata): Usage {
  const cached = metadata.cachedContentTokenCount ?? 0;
  const thoughts = metadata.thoughtsTokenCount ?? 0;
  return {
    inputTokens: Math.max(0, (metadata.promptTokenCount ?? 0) - cached) + (metadata.toolUsePromptTokenCount ?? 0),
    outputTokens: (metadata.candidatesTokenCount ?? 0) + thoughts,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    reasoningTokens: thoughts,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function failure(context: GeminiErrorContext, kind: 'server' | 'network', what: string, midStream: boolean): ProviderError {
  return new ProviderError({ kind, message: `${context.provider} (gemini): ${what}`, provider: context.provider, model: context.model, midStream });
}

/** ProviderError is immutable; copy it with `midStream` set. */
