import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { markMidStream } from '../http/mark-mid-stream.js';
import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import { mapOpenAIChatUsage } from './map-openai-chat-usage.js';
import { mapOpenAIChatStopReason } from './map-openai-chat-stop-reason.js';
import { classifyOpenAIChatStreamError, type OpenAIChatErrorContext } from './openai-chat-error.js';
import type { ChatChunk, ChatUsage } from './openai-chat-api-types.js';
import { OpenAIChatToolCalls } from './accumulate-openai-chat-tool-calls.js';
import { readOpenAIChatContent } from './read-openai-chat-content.js';

/** A push parser from decoded SSE text to unified events. */
export interface OpenAIChatStreamParser {
  /** Feed decoded text (any split); returns the events it completed. */
  push(text: string): StreamEvent[];
  /** The body ended: flush, and end with `stop` or a truncation `error`. */
  end(): StreamEvent[];
  /** The transport failed: end with this error (midStream set when content was already given). */
  fail(error: ProviderError): StreamEvent[];
  /** True once `stop` or `error` has been emitted; later input is ignored. */
  readonly finished: boolean;
}

/**
 * Parse a Chat Completions SSE stream
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming): chunks of
 * `data: {json}`, ended by `data: [DONE]`. Content and reasoning deltas pass through;
 * tool calls are assembled by OpenAIChatToolCalls and ended at `finish_reason`; the
 * usage chunk requested by `stream_options.include_usage` comes after the finish chunk,
 * so `usage` and `stop` are held until `[DONE]` (or the end of the body, if the server
 * finished but never sent `[DONE]`). A body that ends with neither is truncated and
 * ends with a `network` error, never a silent success.
 */
export function createOpenAIChatStreamParser(context: OpenAIChatErrorContext): OpenAIChatStreamParser {
  let out: StreamEvent[] = [];
  let finished = false;
  let semantic = false;
  let position = 0;
  let responseId = '';
  let finishReason: string | undefined;
  let refused = false;
  let usage: ChatUsage | undefined;
  let ending = false;
  const toolCalls = new OpenAIChatToolCalls(() => responseId);

  const emit = (event: StreamEvent): void => {
    if (event.type !== 'usage' && event.type !== 'stop' && event.type !== 'error') semantic = true;
    out.push(event);
  };

  const fail = (error: ProviderError): void => {
    if (finished) return;
    finished = true;
    out.push({ type: 'error', error: semantic ? markMidStream(error) : error });
  };

  const finish = (): void => {
    if (finished) return;
    for (const event of toolCalls.endAll()) emit(event);
    if (usage !== undefined) out.push({ type: 'usage', usage: mapOpenAIChatUsage(usage) });
    finished = true;
    out.push({ type: 'stop', reason: mapOpenAIChatStopReason(finishReason, toolCalls.hasCalls, refused) });
  };

  const onChunk = (chunk: ChatChunk): void => {
    if (typeof chunk.id === 'string' && responseId === '') responseId = chunk.id;
    const reported = chunk.usage ?? chunk.x_groq?.usage;
    if (reported !== undefined && reported !== null) usage = reported;
    if (chunk.error !== undefined && chunk.error !== null) {
      fail(classifyOpenAIChatStreamError(context, chunk.error, semantic));
      return;
    }
    // Only the first choice is read: we never ask for n > 1.
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find((c) => (c.index ?? 0) === 0) : undefined;
    if (choice === undefined) return;
    if (finishReason !== undefined) return;
    const delta = choice.delta ?? {};
    const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
    if (reasoning !== undefined) emit({ type: 'thinking-delta', text: reasoning });
    for (const piece of readOpenAIChatContent(delta.content)) {
      emit(piece.kind === 'text' ? { type: 'text-delta', text: piece.text } : { type: 'thinking-delta', text: piece.text });
    }
    const refusal = nonEmpty(delta.refusal);
    if (refusal !== undefined) {
      refused = true;
      emit({ type: 'text-delta', text: refusal });
    }
    const pieces = Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
    for (const piece of pieces) for (const event of toolCalls.push(piece, position)) emit(event);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
      if (choice.finish_reason === 'error') {
        fail(classifyOpenAIChatStreamError(context, { message: 'the server ended the response with finish_reason "error"' }, semantic));
        return;
      }
      finishReason = choice.finish_reason;
      for (const event of toolCalls.endAll()) emit(event);
    }
  };

  const onEvent = (message: EventSourceMessage): void => {
    if (finished) return;
    position += 1;
    const data = message.data.trim();
    // `data: : keepalive` (some proxies) and empty data lines carry nothing.
    if (data === '' || data.startsWith(':')) return;
    if (data === '[DONE]') {
      finish();
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      // An unparseable last line when the body ended is a line cut off mid-way.
      fail(ending ? truncated(context) : new ProviderError({
        ...context,
        kind: 'server',
        message: `${context.provider}: the stream sent data that is not JSON: ${data.slice(0, 200)}`,
      }));
      return;
    }
    if (typeof json !== 'object' || json === null) return;
    if (message.event === 'error') {
      const record = json as { error?: unknown };
      const body = (record.error ?? json) as ChatChunk['error'];
      fail(classifyOpenAIChatStreamError(context, body ?? 'unknown error', semantic));
      return;
    }
    onChunk(json as ChatChunk);
  };

  const sse = createParser({ onEvent });

  const drain = (): StreamEvent[] => {
    const events = out;
    out = [];
    return events;
  };

  return {
    push(text) {
      if (!finished) sse.feed(text);
      return drain();
    },
    end() {
      if (!finished) {
        // A last event without its blank line still counts (the body ended on it).
        ending = true;
        sse.feed('\n\n');
        if (!finished && finishReason !== undefined) finish();
        if (!finished) fail(truncated(context));
      }
      return drain();
    },
    fail(error) {
      fail(error);
      return drain();
    },
    get finished() {
      return finished;
    },
  };
}

function truncated(context: OpenAIChatErrorContext): ProviderError {
  return new ProviderError({
    ...context,
    kind: 'network',
    message: `${context.provider}: the stream ended before [DONE] and without a finish_reason; the response was truncated`,
  });
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
