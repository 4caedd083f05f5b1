import { markMidStream } from '../http/mark-mid-stream.js';
import type { StreamParser } from '../http/stream-through-parser.js';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderError } from '../provider-error.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import type { StreamEvent } from '../stream-event.js';
import type { ResponsesErrorObject, ResponsesOutputItem, ResponsesStreamEvent } from './openai-responses-api-types.js';
import { openAIResponsesStreamError, type OpenAIResponsesErrorContext } from './openai-responses-error.js';
import { mapOpenAIResponsesStopReason } from './map-openai-responses-stop-reason.js';
import { mapOpenAIResponsesUsage } from './map-openai-responses-usage.js';
import { describeUnhandledOutputItem } from './describe-unhandled-output-item.js';

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

/**
 * The event sequence follows https://platform.openai.com/docs/api-reference/responses-streaming:
 * `response.created`, then per output item `response.output_item.added`, its deltas and
 * `response.output_item.done`, then exactly one of `response.completed`, `response.incomplete`
 * or `response.failed`; an `error` event can come at any point. There is no `[DONE]` line.
 * Dispatch is on the JSON `type`, not the SSE `event:` name, since compatible servers omit it.
 */
export function createOpenAIResponsesStreamParser(context: OpenAIResponsesErrorContext): OpenAIResponsesStreamParser {
  const calls = new Map<string, PendingCall>();
  const lastSummaryIndex = new Map<string, number>();
  let out: StreamEvent[] = [];
  let done = false;
  let emittedContent = false;
  let sawFunctionCall = false;
  let sawRefusal = false;
  /** Text was emitted since the last `text-end`. */
  let textOpen = false;
  /** Unhandled items already told about, by id (an item may be reported twice). */
  const noticed = new Set<string>();

  const emit = (event: StreamEvent): void => {
    if (done) return;
    if (event.type === 'stop' || event.type === 'error') done = true;
    else if (event.type !== 'usage' && event.type !== 'notice') emittedContent = true;
    if (event.type === 'text-delta') textOpen = true;
    out.push(event);
  };
  const fail = (error: ResponsesErrorObject): void => {
    emit({ type: 'error', error: openAIResponsesStreamError(error, context, emittedContent) });
  };

  const onItemAdded = (item: ResponsesOutputItem): void => {
    if (item.type !== 'function_call' || item.id === undefined) return;
    const callId = item.call_id ?? item.id;
    const name = item.name ?? '';
    calls.set(item.id, { callId, name, finalArguments: undefined, streamedArguments: '' });
    sawFunctionCall = true;
    emit({ type: 'tool-call-start', id: callId, name });
  };

  const onItemDone = (item: ResponsesOutputItem): void => {
    if (item.type === 'message') {
      // Each message item is its own text part: two items (e.g. `phase` commentary, then
      // final_answer) would otherwise run together with no space between them.
      if (textOpen) emit({ type: 'text-end' });
      textOpen = false;
      return;
    }
    const notice = describeUnhandledOutputItem(item);
    if (notice !== undefined) {
      const key = item.id ?? `${item.type}:${noticed.size}`;
      if (!noticed.has(key)) emit({ type: 'notice', message: notice });
      noticed.add(key);
      return;
    }
    if (item.type === 'reasoning' && item.id !== undefined && typeof item.encrypted_content === 'string') {
      // The encrypted reasoning is what a stateless (`store: false`) request replays next turn.
      emit({ type: 'thinking-signature', redacted: item.encrypted_content, providerData: { itemId: item.id } });
      return;
    }
    if (item.type !== 'function_call' || item.id === undefined) return;
    let call = calls.get(item.id);
    if (call === undefined) {
      onItemAdded(item);
      call = calls.get(item.id);
      if (call === undefined) return;
    }
    calls.delete(item.id);
    const text = typeof item.arguments === 'string' ? item.arguments : (call.finalArguments ?? call.streamedArguments);
    const name = item.name ?? call.name;
    const parsed = parseToolArguments(text, name);
    emit({ type: 'tool-call-end', id: call.callId, name, ...parsed, providerData: { itemId: item.id } });
  };

  const finish = (event: ResponsesStreamEvent, status: 'completed' | 'incomplete'): void => {
    emit({ type: 'usage', usage: mapOpenAIResponsesUsage(event.response?.usage) });
    const incompleteReason = event.response?.incomplete_details?.reason ?? undefined;
    emit({ type: 'stop', reason: mapOpenAIResponsesStopReason({ status, incompleteReason, sawFunctionCall, sawRefusal }) });
  };

  const handle = (event: ResponsesStreamEvent): void => {
    // A delta that is not a non-empty string carries nothing (and must not leak a non-string).
    const delta = typeof event.delta === 'string' && event.delta !== '' ? event.delta : undefined;
    switch (event.type) {
      case 'response.output_item.added':
        if (event.item) onItemAdded(event.item);
        return;
      case 'response.output_item.done':
        if (event.item) onItemDone(event.item);
        return;
      case 'response.output_text.delta':
        if (delta !== undefined) emit({ type: 'text-delta', text: delta });
        return;
      case 'response.refusal.delta':
        // A refusal is shown to the user as text and ends the turn with stop reason `refusal`.
        sawRefusal = true;
        if (delta !== undefined) emit({ type: 'text-delta', text: delta });
        return;
      case 'response.reasoning_summary_text.delta': {
        // Summary parts of one reasoning item are separate paragraphs; keep them apart.
        const itemId = event.item_id ?? '';
        const index = event.summary_index ?? 0;
        const last = lastSummaryIndex.get(itemId);
        lastSummaryIndex.set(itemId, index);
        if (last !== undefined && last !== index) emit({ type: 'thinking-delta', text: '\n\n' });
        if (delta !== undefined) emit({ type: 'thinking-delta', text: delta });
        return;
      }
      case 'response.reasoning_text.delta':
        if (delta !== undefined) emit({ type: 'thinking-delta', text: delta });
        return;
      case 'response.function_call_arguments.delta': {
        const call = calls.get(event.item_id ?? '');
        if (call === undefined || delta === undefined) return;
        call.streamedArguments += delta;
        emit({ type: 'tool-call-delta', id: call.callId, argsDelta: delta });
        return;
      }
      case 'response.function_call_arguments.done': {
        const call = calls.get(event.item_id ?? '');
        if (call !== undefined && typeof event.arguments === 'string') call.finalArguments = event.arguments;
        return;
      }
      case 'response.completed':
        finish(event, 'completed');
        return;
      case 'response.incomplete':
        finish(event, 'incomplete');
        return;
      case 'response.failed':
        fail(event.response?.error ?? { message: 'the response failed without an error object' });
        return;
      case 'error':
        // Two shapes are in use: the documented top-level `{type, code, message, param}` and a
        // nested `{type, error: {type, code, message, param}}`.
        fail(event.error ?? { code: event.code, message: event.message, param: event.param });
        return;
      default:
        // response.created, content_part.*, *.done text events and hosted-tool events carry
        // nothing the unified stream needs.
        return;
    }
  };

  const onEvent = (message: EventSourceMessage): void => {
    if (done || message.data === '[DONE]') return;
    let event: ResponsesStreamEvent;
    try {
      event = JSON.parse(message.data) as ResponsesStreamEvent;
    } catch {
      emit({
        type: 'error',
        error: new ProviderError({
          kind: 'server',
          message: `${context.provider}/${context.model}: the stream sent an event that is not JSON: ${message.data.slice(0, 200)}`,
          provider: context.provider,
          model: context.model,
          midStream: emittedContent,
        }),
      });
      return;
    }
    if (event !== null && typeof event === 'object' && typeof event.type === 'string') handle(event);
    // Anything else (a bare string, a number) is not a Responses event and is skipped.
  };

  const sse = createParser({ onEvent });

  return {
    push(text: string): StreamEvent[] {
      if (done) return [];
      sse.feed(text);
      const events = out;
      out = [];
      return events;
    },
    end(): StreamEvent[] {
      if (!done) {
        emit({
          type: 'error',
          error: new ProviderError({
            kind: 'network',
            message: `${context.provider}/${context.model}: the stream ended before response.completed`,
            provider: context.provider,
            model: context.model,
            midStream: emittedContent,
          }),
        });
      }
      const events = out;
      out = [];
      return events;
    },
    fail(error: ProviderError): StreamEvent[] {
      emit({ type: 'error', error: emittedContent && !error.midStream ? markMidStream(error) : error });
      const events = out;
      out = [];
      return events;
    },
    get finished() {
      return done;
    },
  };
}
