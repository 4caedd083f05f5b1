import { z } from 'zod';
import { parseSseJsonStream, type StreamSink } from '../http/parse-sse-json-stream.js';
import type { StreamParser } from '../http/stream-through-parser.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import { ProviderError } from '../provider-error.js';
import { OPENAI_RESPONSES_PROTOCOL } from './convert-to-openai-responses-messages.js';
import { describeUnhandledOutputItem } from './describe-unhandled-output-item.js';
import { mapOpenAIResponsesStopReason } from './map-openai-responses-stop-reason.js';
import { mapOpenAIResponsesUsage } from './map-openai-responses-usage.js';
import type { ResponsesErrorObject } from './openai-responses-api-types.js';
import { openAIResponsesStreamError, type OpenAIResponsesErrorContext } from './openai-responses-error.js';
import { responsesStreamSchemas, type ResponsesOutputItem, type ResponsesStreamEvent } from './openai-responses-stream-schema.js';

/** Built on the first event (the schemas are built on first use; a model's prepare() or the request's send builds them sooner). */
const eventSchema = z.lazy(() => responsesStreamSchemas().event);

/** A pure, push-driven parser of one Responses event stream; `finished` once a terminal event was seen. */
export type OpenAIResponsesStreamParser = StreamParser;

interface PendingCall {
  callId: string;
  name: string;
  /** The complete arguments from `response.function_call_arguments.done`, when seen. */
  finalArguments: string | undefined;
  /** The deltas so far, for streams that never send `.done`. */
  streamedArguments: string;
}

type Terminal = Extract<ResponsesStreamEvent, { type: 'response.completed' | 'response.incomplete' }>;

/**
 * The event sequence follows https://platform.openai.com/docs/api-reference/responses-streaming:
 * `response.created`, then per output item `response.output_item.added`, its deltas and
 * `response.output_item.done`, then exactly one of `response.completed`, `response.incomplete`
 * or `response.failed`; an `error` event can come at any point. There is no `[DONE]` line
 * (a stray one is ignored). Dispatch is on the JSON `type`, not the SSE `event:` name,
 * since compatible servers omit it.
 */
export function createOpenAIResponsesStreamParser(context: OpenAIResponsesErrorContext): OpenAIResponsesStreamParser {
  const calls = new Map<string, PendingCall>();
  const lastSummaryIndex = new Map<string, number>();
  let sawFunctionCall = false;
  let sawRefusal = false;
  /** Text was emitted since the last `text-end`. */
  let textOpen = false;
  /** Unhandled items already told about, by id (an item may be reported twice). */
  const noticed = new Set<string>();

  const fail = (sink: StreamSink, error: ResponsesErrorObject): void => {
    sink.emit({ type: 'error', error: openAIResponsesStreamError(error, context, sink.emittedContent) });
  };

  const text = (sink: StreamSink, value: string): void => {
    textOpen = true;
    sink.emit({ type: 'text-delta', text: value });
  };

  /** A function call, at its `added` event or at `done` when no `added` came first. */
  type FunctionCallItem = Extract<ResponsesOutputItem, { type: 'function_call' }>;

  const startCall = (sink: StreamSink, item: FunctionCallItem, id: string): PendingCall => {
    const call = { callId: item.call_id ?? id, name: item.name ?? '', finalArguments: undefined, streamedArguments: '' };
    calls.set(id, call);
    sawFunctionCall = true;
    sink.emit({ type: 'tool-call-start', id: call.callId, name: call.name });
    return call;
  };

  const onItemAdded = (sink: StreamSink, item: ResponsesOutputItem): void => {
    if (item.type === 'function_call' && typeof item.id === 'string') startCall(sink, item, item.id);
  };

  const onItemDone = (sink: StreamSink, item: ResponsesOutputItem): void => {
    switch (item.type) {
      case 'message':
        // Each message item is its own text part: two items (e.g. `phase` commentary, then
        // final_answer) would otherwise run together with no space between them.
        if (textOpen) sink.emit({ type: 'text-end' });
        textOpen = false;
        return;
      case 'reasoning':
        // The encrypted reasoning is what a stateless (`store: false`) request replays next turn.
        if (typeof item.id === 'string' && typeof item.encrypted_content === 'string') {
          sink.emit({ type: 'thinking-signature', redacted: item.encrypted_content, providerData: { itemId: item.id } });
        }
        return;
      case 'other': {
        const notice = describeUnhandledOutputItem(item);
        const key = item.id ?? `${item.itemType}:${noticed.size}`;
        if (notice !== undefined && !noticed.has(key)) sink.emit({ type: 'notice', message: notice });
        noticed.add(key);
        return;
      }
      case 'function_call': {
        if (typeof item.id !== 'string') return;
        const call = calls.get(item.id) ?? startCall(sink, item, item.id);
        calls.delete(item.id);
        const args = item.arguments ?? call.finalArguments ?? call.streamedArguments;
        const name = item.name ?? call.name;
        sink.emit({ type: 'tool-call-end', id: call.callId, name, ...parseToolArguments(args, name), providerData: { itemId: item.id } });
        return;
      }
    }
  };

  const finish = (sink: StreamSink, event: Terminal, status: 'completed' | 'incomplete'): void => {
    sink.emit({ type: 'usage', usage: mapOpenAIResponsesUsage(event.response?.usage) });
    const incompleteReason = event.response?.incomplete_details?.reason ?? undefined;
    sink.emit({ type: 'stop', reason: mapOpenAIResponsesStopReason({ status, incompleteReason, sawFunctionCall, sawRefusal }) });
  };

  const handle = (event: ResponsesStreamEvent, sink: StreamSink): void => {
    // A delta that is not a non-empty string carries nothing (and must not leak a non-string).
    const delta = 'delta' in event && typeof event.delta === 'string' && event.delta !== '' ? event.delta : undefined;
    switch (event.type) {
      case 'response.output_item.added':
        onItemAdded(sink, event.item);
        return;
      case 'response.output_item.done':
        onItemDone(sink, event.item);
        return;
      case 'response.output_text.delta':
        if (delta !== undefined) text(sink, delta);
        return;
      case 'response.refusal.delta':
        // A refusal is shown to the user as text and ends the turn with stop reason `refusal`.
        sawRefusal = true;
        if (delta !== undefined) text(sink, delta);
        return;
      case 'response.reasoning_summary_text.delta': {
        // Summary parts of one reasoning item are separate paragraphs; keep them apart.
        const itemId = event.item_id ?? '';
        const index = event.summary_index ?? 0;
        const last = lastSummaryIndex.get(itemId);
        lastSummaryIndex.set(itemId, index);
        if (last !== undefined && last !== index) sink.emit({ type: 'thinking-delta', text: '\n\n' });
        if (delta !== undefined) sink.emit({ type: 'thinking-delta', text: delta });
        return;
      }
      case 'response.reasoning_text.delta':
        if (delta !== undefined) sink.emit({ type: 'thinking-delta', text: delta });
        return;
      case 'response.function_call_arguments.delta': {
        const call = calls.get(event.item_id ?? '');
        if (call === undefined || delta === undefined) return;
        call.streamedArguments += delta;
        sink.emit({ type: 'tool-call-delta', id: call.callId, argsDelta: delta });
        return;
      }
      case 'response.function_call_arguments.done': {
        const call = calls.get(event.item_id ?? '');
        if (call !== undefined && typeof event.arguments === 'string') call.finalArguments = event.arguments;
        return;
      }
      case 'response.completed':
        finish(sink, event, 'completed');
        return;
      case 'response.incomplete':
        finish(sink, event, 'incomplete');
        return;
      case 'response.failed':
        fail(sink, event.response?.error ?? { message: 'the response failed without an error object' });
        return;
      case 'error':
        fail(sink, event.error ?? { code: event.code, message: event.message, param: event.param });
        return;
    }
  };

  return parseSseJsonStream({
    protocol: OPENAI_RESPONSES_PROTOCOL,
    context,
    schema: eventSchema,
    reads: (json) => typeof json.type === 'string' && responsesStreamSchemas().eventTypes.has(json.type),
    onMarker: (data) => data === '[DONE]',
    onEvent: handle,
    onEnd(sink) {
      sink.fail(new ProviderError({
        kind: 'network',
        message: `${context.provider} (${OPENAI_RESPONSES_PROTOCOL}): the stream ended before response.completed`,
        provider: context.provider,
        model: context.model,
      }));
    },
  });
}
