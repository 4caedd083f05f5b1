import { parseSseJsonStream, type StreamSink } from '../http/parse-sse-json-stream.js';
import type { StreamParser } from '../http/stream-through-parser.js';
import { ProviderError } from '../provider-error.js';
import { OpenAIChatToolCalls } from './accumulate-openai-chat-tool-calls.js';
import { mapOpenAIChatStopReason } from './map-openai-chat-stop-reason.js';
import { mapOpenAIChatUsage } from './map-openai-chat-usage.js';
import { classifyOpenAIChatStreamError, type OpenAIChatErrorContext } from './openai-chat-error.js';
import { isPlainChatChunk } from './is-plain-chat-chunk.js';
import { chatChunkSchema, type ChatChunk, type ChatUsage } from './openai-chat-stream-schema.js';
import { readOpenAIChatContent, type ChatContentPiece } from './read-openai-chat-content.js';
import { ThinkTagSplitter, type ReasoningTags } from './think-tag-splitter.js';

/** The protocol id named in this parser's errors. */
const PROTOCOL = 'openai-chat';

/** A push parser from decoded SSE text to unified events. */
export type OpenAIChatStreamParser = StreamParser;

/** What the parser needs to know about the model beyond the wire format. */
export interface OpenAIChatStreamOptions {
  /** Tags wrapping reasoning inside `content` (resolveReasoningTags); none when absent. */
  reasoningTags?: ReasoningTags;
}

/**
 * Parse a Chat Completions SSE stream
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming): chunks of
 * `data: {json}`, ended by `data: [DONE]`. Content and reasoning deltas pass through;
 * tool calls are assembled by OpenAIChatToolCalls and ended at `finish_reason`; the
 * usage chunk requested by `stream_options.include_usage` comes after the finish chunk,
 * so `usage` and `stop` are held until `[DONE]` (or the end of the body, if the server
 * finished but never sent `[DONE]`). A body that ends with neither is truncated and
 * ends with a `network` error, never a silent success. With `reasoningTags`, the text of
 * `content` goes through a ThinkTagSplitter, flushed when the choice finishes (or the
 * stream ends), so reasoning in `<think>` tags becomes thinking deltas.
 */
export function createOpenAIChatStreamParser(context: OpenAIChatErrorContext, options: OpenAIChatStreamOptions = {}): OpenAIChatStreamParser {
  let responseId = '';
  let finishReason: string | undefined;
  let refused = false;
  let usage: ChatUsage | undefined;
  const toolCalls = new OpenAIChatToolCalls(() => responseId);
  const splitter = options.reasoningTags === undefined ? undefined : new ThinkTagSplitter(options.reasoningTags);
  const emitContent = (sink: StreamSink, pieces: readonly ChatContentPiece[]): void => {
    for (const piece of pieces) sink.emit(piece.kind === 'text' ? { type: 'text-delta', text: piece.text } : { type: 'thinking-delta', text: piece.text });
  };
  // What the splitter holds back arrived all the same: it is kept before a stop or an error.
  const flushContent = (sink: StreamSink): void => {
    if (splitter !== undefined) emitContent(sink, splitter.end());
  };

  const finish = (sink: StreamSink): void => {
    flushContent(sink);
    for (const event of toolCalls.endAll()) sink.emit(event);
    if (usage !== undefined) sink.emit({ type: 'usage', usage: mapOpenAIChatUsage(usage) });
    sink.emit({ type: 'stop', reason: mapOpenAIChatStopReason(finishReason, toolCalls.hasCalls, refused) });
  };

  const onChunk = (chunk: ChatChunk, sink: StreamSink, event: string | undefined): void => {
    if (event === 'error') {
      // An `event: error` frame: the error object, wrapped in `error` or bare.
      flushContent(sink);
      sink.emit({ type: 'error', error: classifyOpenAIChatStreamError(context, chunk.error ?? bareError(chunk), sink.emittedContent) });
      return;
    }
    if (typeof chunk.id === 'string' && responseId === '') responseId = chunk.id;
    const reported = chunk.usage ?? chunk.x_groq?.usage;
    if (reported !== undefined && reported !== null) usage = reported;
    if (chunk.error !== undefined && chunk.error !== null) {
      flushContent(sink);
      sink.emit({ type: 'error', error: classifyOpenAIChatStreamError(context, chunk.error, sink.emittedContent) });
      return;
    }
    // Only the first choice is read: we never ask for n > 1.
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (choice === undefined || finishReason !== undefined) return;
    const delta = choice.delta ?? {};
    const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
    if (reasoning !== undefined) {
      splitter?.reasoningSeparated();
      sink.emit({ type: 'thinking-delta', text: reasoning });
    }
    for (const piece of readOpenAIChatContent(delta.content)) {
      emitContent(sink, piece.kind === 'text' && splitter !== undefined ? splitter.push(piece.text) : [piece]);
    }
    const refusal = nonEmpty(delta.refusal);
    if (refusal !== undefined) {
      refused = true;
      sink.emit({ type: 'text-delta', text: refusal });
    }
    for (const piece of delta.tool_calls ?? []) for (const call of toolCalls.push(piece, sink.position)) sink.emit(call);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
      if (choice.finish_reason === 'error') {
        flushContent(sink);
        sink.emit({
          type: 'error',
          error: classifyOpenAIChatStreamError(context, { message: 'the server ended the response with finish_reason "error"' }, sink.emittedContent),
        });
        return;
      }
      finishReason = choice.finish_reason;
      flushContent(sink);
      for (const call of toolCalls.endAll()) sink.emit(call);
    }
  };

  return parseSseJsonStream({
    protocol: PROTOCOL,
    context,
    schema: chatChunkSchema,
    plain: isPlainChatChunk,
    onMarker(data, sink) {
      if (data !== '[DONE]') return false;
      finish(sink);
      return true;
    },
    onEvent: onChunk,
    onEnd(sink) {
      // A server that finished but never sent [DONE] has still answered in full.
      if (finishReason !== undefined) {
        finish(sink);
        return;
      }
      flushContent(sink);
      sink.fail(new ProviderError({
        ...context,
        kind: 'network',
        message: `${context.provider} (${PROTOCOL}): the stream ended before [DONE] and without a finish_reason; the response was truncated`,
      }));
    },
  });
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The bare error fields of an `event: error` frame, each kept only when it has the documented type. */
function bareError(chunk: ChatChunk): { message?: string; code?: string | number; type?: string } {
  const { message, code, type } = chunk;
  return {
    ...(typeof message === 'string' ? { message } : {}),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof type === 'string' ? { type } : {}),
  };
}
