import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { parseSseJsonStream, type StreamSink } from '../http/parse-sse-json-stream.js';
import type { StreamParser } from '../http/stream-through-parser.js';
import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import type { Usage } from '../usage.js';
import { GEMINI_PROTOCOL } from './convert-to-gemini-messages.js';
import { geminiStreamError, type GeminiErrorContext } from './gemini-error.js';
import { GeminiArgsAssembler } from './gemini-args-assembler.js';
import type { GeminiSignaturePart, GeminiUsageMetadata } from './gemini-types.js';
import { geminiStreamSchemas, type GeminiStreamChunk, type GeminiStreamedFunctionCall, type GeminiStreamedPart } from './gemini-stream-schema.js';
import { mapGeminiBlockReason, mapGeminiStopReason } from './map-gemini-stop-reason.js';

/** Built on the first event (the schemas are built on first use; a model's prepare() or the request's send builds them sooner). */
const chunkSchema = z.lazy(() => geminiStreamSchemas().chunk);

/** The Gemini SSE stream as a pure object: decoded text in, unified events out. */
export type GeminiStreamParser = StreamParser;

export interface GeminiStreamParserOptions {
  /** Prefix for call ids when Gemini sends none and the chunk has no `responseId`; random by default. */
  fallbackIdPrefix?: string;
}

/** A function call begun and not yet ended. */
interface OpenCall {
  id: string;
  /** Empty when Gemini sent none. */
  name: string;
  providerData: Record<string, unknown>;
  assembler: GeminiArgsAssembler;
  /** The arguments of a call sent whole. */
  wholeArgs?: Record<string, unknown>;
  wholeArgsError?: string;
}

/**
 * With `alt=sse` every `data:` line is a whole GenerateContentResponse
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent):
 * text arrives in pieces, function calls arrive whole or with streamed arguments,
 * `finishReason` sits on the last candidate chunk and `usageMetadata` snapshots may come
 * with any chunk (the last wins). Code-execution parts are Google's own and pass
 * silently; other parts not read here are told about with a notice.
 * The stream simply ends; there is no closing event, so the stop is emitted by `end()`.
 */
export function parseGeminiStream(context: GeminiErrorContext, options: GeminiStreamParserOptions = {}): GeminiStreamParser {
  let usage: GeminiUsageMetadata | undefined;
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  let callCount = 0;
  let open: OpenCall | undefined;
  const fallbackIdPrefix = options.fallbackIdPrefix ?? randomUUID();
  // The shared parser's sink (one per stream), kept from its first call so the helpers
  // below can emit without passing it along; nothing is emitted outside those calls.
  let sink: StreamSink | undefined;

  function emit(event: StreamEvent): void {
    sink?.emit(event);
  }

  function handle(chunk: GeminiStreamChunk, current: StreamSink): void {
    sink = current;
    if (chunk.error !== undefined) {
      emit({ type: 'error', error: geminiStreamError(context, chunk.error, current.emittedContent) });
      return;
    }
    if (chunk.usageMetadata !== undefined) usage = chunk.usageMetadata;
    if (chunk.promptFeedback?.blockReason !== undefined) blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) handlePart(part, chunk.responseId);
    if (candidate?.finishReason !== undefined) finishReason = candidate.finishReason;
  }

  function handlePart(part: GeminiStreamedPart, responseId: string | undefined): void {
    // An image or a kind added later: what it carries is not shown, so say so.
    if (part.unreadKind !== undefined) emit({ type: 'notice', message: `The model sent a part agentd does not read: ${part.unreadKind}. It was ignored.` });
    const signature = part.thoughtSignature;
    if (part.functionCall !== undefined) {
      handleFunctionCall(part.functionCall, signature, responseId);
      return;
    }
    if (typeof part.text === 'string' && part.text !== '') {
      emit(part.thought === true ? { type: 'thinking-delta', text: part.text } : { type: 'text-delta', text: part.text });
    }
    if (signature !== undefined) {
      emit({ type: 'thinking-signature', signature, providerData: { geminiPart: signaturePart(part) } });
    }
  }

  /**
   * A call arrives whole (`name` + `args`), or streamed: a part with the `name` and
   * `willContinue: true`, parts with `partialArgs`, and a part without `willContinue`
   * (`{}` in recorded streams, or the last `partialArgs`) that ends it. Calls stream one
   * after another, so a new `name` also ends the call before it. A call without a name
   * is passed on with an argument error, so the model is told instead of the turn failing.
   */
  function handleFunctionCall(call: GeminiStreamedFunctionCall, signature: string | undefined, responseId: string | undefined): void {
    const name = typeof call.name === 'string' && call.name !== '' ? call.name : undefined;
    const streamed = call.willContinue === true || call.partialArgs !== undefined;
    if (name !== undefined || (open === undefined && (streamed || call.args !== undefined))) {
      if (open !== undefined) closeCall();
      const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${responseId ?? fallbackIdPrefix}_${callCount}`;
      callCount++;
      const providerData: Record<string, unknown> = {};
      if (signature !== undefined) providerData.thoughtSignature = signature;
      if (id === call.id) providerData.functionCallId = call.id;
      open = { id, name: name ?? '', providerData, assembler: new GeminiArgsAssembler() };
      emit({ type: 'tool-call-start', id, name: open.name });
      if (!streamed) {
        // A whole call: `args` is the complete object (absent when the call takes none).
        const args = call.args;
        if (args !== undefined && !isObject(args)) open.wholeArgsError = `the arguments are not a JSON object: ${JSON.stringify(args).slice(0, 200)}`;
        else if (args !== undefined) open.wholeArgs = args;
      }
    } else if (open === undefined) {
      // `{}` or `{willContinue: true}` with no call to belong to: nothing to run.
      return;
    }
    if (call.partialArgs !== undefined) open.assembler.add(call.partialArgs);
    if (call.willContinue !== true) closeCall();
  }

  /** Ends the open call; `cutOff` says the stream ended while it still expected more. */
  function closeCall(cutOff?: string): void {
    const call = open;
    if (call === undefined) return;
    open = undefined;
    const args = call.wholeArgs ?? call.assembler.args;
    const argsError = call.name === '' ? 'the function call has no name' : (cutOff ?? call.wholeArgsError ?? call.assembler.error);
    emit({ type: 'tool-call-delta', id: call.id, argsDelta: JSON.stringify(args) });
    emit({
      type: 'tool-call-end',
      id: call.id,
      name: call.name,
      args,
      ...(argsError !== undefined ? { argsError } : {}),
      ...(Object.keys(call.providerData).length > 0 ? { providerData: call.providerData } : {}),
    });
  }

  function finish(): void {
    if (finishReason !== undefined || blockReason !== undefined) {
      // A streamed call still waiting for parts: its arguments may be incomplete, unless
      // the model stopped normally between two leaves.
      if (open !== undefined) closeCall(finishReason !== 'STOP' || open.assembler.stringOpen ? `the arguments were cut off (${finishReason ?? blockReason})` : undefined);
      if (usage !== undefined) emit({ type: 'usage', usage: toUsage(usage) });
      emit({
        type: 'stop',
        reason: finishReason !== undefined ? mapGeminiStopReason(finishReason, callCount > 0) : mapGeminiBlockReason(blockReason ?? ''),
      });
    } else {
      sink?.fail(new ProviderError({
        kind: 'network',
        message: `${context.provider} (${GEMINI_PROTOCOL}): the stream ended without a finishReason (connection closed early)`,
        provider: context.provider,
        model: context.model,
      }));
    }
  }

  return parseSseJsonStream({
    protocol: GEMINI_PROTOCOL,
    context,
    schema: chunkSchema,
    onEvent: handle,
    // The stream simply ends: the stop (or the truncation error) is decided here.
    onEnd(current) {
      sink = current;
      finish();
    },
  });
}

function signaturePart(part: GeminiStreamedPart): GeminiSignaturePart {
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
