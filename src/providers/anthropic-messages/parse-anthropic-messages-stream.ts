import { markMidStream } from '../http/mark-mid-stream.js';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import { anthropicMessagesStreamError, type AnthropicMessagesErrorContext } from './anthropic-messages-error.js';
import type { AnthropicErrorObject, AnthropicUsage } from './anthropic-messages-types.js';
import { mergeAnthropicMessagesUsage, toUnifiedUsage } from './anthropic-messages-usage.js';
import { mapAnthropicMessagesStopReason } from './map-anthropic-messages-stop-reason.js';
import { parseToolArguments } from '../parse-tool-arguments.js';

/**
 * The Anthropic Messages SSE stream as a pure object: feed it decoded text, collect
 * unified events. It produces nothing after the first `stop` or `error`.
 */
export interface AnthropicMessagesStreamParser {
  /** Feed the next piece of decoded body text; returns the events it completed. */
  push(text: string): StreamEvent[];
  /** The body ended: returns the closing `stop`, or an `error` when the stream was cut short. */
  end(): StreamEvent[];
  /** The transport failed: returns the closing `error`, flagged `midStream` once content was emitted. */
  fail(error: ProviderError): StreamEvent[];
  /** True once a `stop` or `error` was produced. */
  readonly finished: boolean;
}

/** What is known about one open content block, by its `index`. */
type Block =
  | { kind: 'text' }
  | { kind: 'thinking'; signature: string }
  | { kind: 'tool'; id: string; name: string; json: string; startInput: unknown }
  /** A block Anthropic's own tools produced; kept whole, its input assembled from deltas. */
  | { kind: 'server'; block: Record<string, unknown>; json: string }
  /** Blocks this protocol does not surface (future types). */
  | { kind: 'other' };

/**
 * Event sequence (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
 * message_start, then per block content_block_start / content_block_delta* /
 * content_block_stop, then message_delta (stop_reason, cumulative usage), message_stop;
 * `ping` may appear anywhere and `error` may end a 200 stream. Unknown event, block and
 * delta types are skipped, as the docs ask clients to do.
 */
export function parseAnthropicMessagesStream(context: AnthropicMessagesErrorContext): AnthropicMessagesStreamParser {
  const blocks = new Map<number, Block>();
  let usage: AnthropicUsage | undefined;
  let stopReason: string | null | undefined;
  let sawMessageDelta = false;
  let emittedContent = false;
  let finished = false;
  let out: StreamEvent[] = [];

  const sse = createParser({ onEvent: (message) => handle(message) });

  function emit(event: StreamEvent): void {
    if (finished) return;
    if (event.type === 'stop' || event.type === 'error') finished = true;
    else if (event.type !== 'usage') emittedContent = true;
    out.push(event);
  }

  function finishWithStop(): void {
    if (usage !== undefined) emit({ type: 'usage', usage: toUnifiedUsage(usage) });
    emit({ type: 'stop', reason: mapAnthropicMessagesStopReason(stopReason) });
  }

  function handle(message: EventSourceMessage): void {
    if (finished) return;
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(message.data) as Record<string, unknown>;
    } catch {
      emit({ type: 'error', error: malformed(context, `an event that is not JSON: ${message.data.slice(0, 200)}`, emittedContent) });
      return;
    }
    const type = typeof data.type === 'string' ? data.type : message.event;
    switch (type) {
      case 'message_start': {
        const start = data.message as { usage?: AnthropicUsage } | undefined;
        if (start?.usage !== undefined) usage = { ...start.usage };
        return;
      }
      case 'content_block_start':
        return startBlock(data.index as number, data.content_block as Record<string, unknown> | undefined);
      case 'content_block_delta':
        return applyDelta(data.index as number, data.delta as Record<string, unknown> | undefined);
      case 'content_block_stop':
        return stopBlock(data.index as number);
      case 'message_delta': {
        sawMessageDelta = true;
        const delta = data.delta as { stop_reason?: string | null } | undefined;
        if (delta?.stop_reason !== undefined && delta.stop_reason !== null) stopReason = delta.stop_reason;
        // message_delta usage is cumulative: each present field replaces the earlier value.
        const deltaUsage = data.usage as AnthropicUsage | undefined;
        if (deltaUsage !== undefined) usage = mergeAnthropicMessagesUsage(usage, deltaUsage);
        return;
      }
      case 'message_stop':
        return finishWithStop();
      case 'error':
        emit({ type: 'error', error: anthropicMessagesStreamError(context, data.error as AnthropicErrorObject | undefined, emittedContent) });
        return;
      default:
        // `ping` and event types added after this was written.
        return;
    }
  }

  function startBlock(index: number, block: Record<string, unknown> | undefined): void {
    switch (block?.type) {
      case 'text':
        blocks.set(index, { kind: 'text' });
        if (typeof block.text === 'string' && block.text !== '') emit({ type: 'text-delta', text: block.text });
        return;
      case 'thinking':
        blocks.set(index, { kind: 'thinking', signature: typeof block.signature === 'string' ? block.signature : '' });
        if (typeof block.thinking === 'string' && block.thinking !== '') emit({ type: 'thinking-delta', text: block.thinking });
        return;
      case 'redacted_thinking':
        // Arrives whole; it must be replayed unchanged (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
        blocks.set(index, { kind: 'other' });
        emit({ type: 'thinking-signature', redacted: typeof block.data === 'string' ? block.data : '' });
        return;
      case 'tool_use': {
        const id = String(block.id ?? `toolu_${index}`);
        const name = String(block.name ?? '');
        blocks.set(index, { kind: 'tool', id, name, json: '', startInput: block.input });
        emit({ type: 'tool-call-start', id, name });
        return;
      }
      default:
        blocks.set(index, block !== undefined && isServerToolBlock(block) ? { kind: 'server', block, json: '' } : { kind: 'other' });
    }
  }

  function applyDelta(index: number, delta: Record<string, unknown> | undefined): void {
    const block = blocks.get(index);
    if (block === undefined || delta === undefined) return;
    if (delta.type === 'text_delta' && block.kind === 'text' && typeof delta.text === 'string' && delta.text !== '') {
      emit({ type: 'text-delta', text: delta.text });
    } else if (delta.type === 'thinking_delta' && block.kind === 'thinking' && typeof delta.thinking === 'string' && delta.thinking !== '') {
      emit({ type: 'thinking-delta', text: delta.thinking });
    } else if (delta.type === 'signature_delta' && block.kind === 'thinking' && typeof delta.signature === 'string') {
      block.signature += delta.signature;
    } else if (delta.type === 'input_json_delta' && block.kind === 'server' && typeof delta.partial_json === 'string') {
      block.json += delta.partial_json;
    } else if (delta.type === 'input_json_delta' && block.kind === 'tool' && typeof delta.partial_json === 'string' && delta.partial_json !== '') {
      block.json += delta.partial_json;
      emit({ type: 'tool-call-delta', id: block.id, argsDelta: delta.partial_json });
    }
  }

  function stopBlock(index: number): void {
    const block = blocks.get(index);
    blocks.delete(index);
    if (block?.kind === 'text') {
      emit({ type: 'text-end' });
    } else if (block?.kind === 'server') {
      emit({ type: 'server-tool', providerProtocol: 'anthropic-messages', block: serverToolBlock(block.block, block.json) });
    } else if (block?.kind === 'thinking' && block.signature !== '') {
      emit({ type: 'thinking-signature', signature: block.signature });
    } else if (block?.kind === 'tool') {
      // Streams carry `input: {}` on the start block and the real input as deltas; a proxy
      // that puts the whole input on the start block instead is honoured too.
      if (block.json === '' && isNonEmptyObject(block.startInput)) {
        block.json = JSON.stringify(block.startInput);
        emit({ type: 'tool-call-delta', id: block.id, argsDelta: block.json });
      }
      const parsed = parseToolArguments(block.json, block.name);
      emit({ type: 'tool-call-end', id: block.id, name: block.name, ...parsed });
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
      if (!finished) {
        // Everything after message_delta is bookkeeping: a stream cut after it is complete.
        if (sawMessageDelta) finishWithStop();
        else emit({ type: 'error', error: malformed(context, 'the stream ended before message_stop (connection closed early)', emittedContent, 'network') });
      }
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

/**
 * Blocks Anthropic's server tools produce in the answer: `server_tool_use`, `mcp_tool_use`,
 * and their `*_tool_result` blocks (web search, web fetch, code execution, ...). They must be replayed unchanged
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool).
 */
function isServerToolBlock(block: Record<string, unknown>): boolean {
  const type = block.type;
  if (typeof type !== 'string') return false;
  return type === 'server_tool_use' || type === 'mcp_tool_use' || (type.endsWith('_tool_result') && type !== 'tool_result');
}

/** The block as sent back: the start block, with the input its deltas streamed. */
function serverToolBlock(start: Record<string, unknown>, json: string): Record<string, unknown> {
  if (json.trim() === '') return start;
  const parsed = parseToolArguments(json, typeof start.name === 'string' ? start.name : String(start.type));
  // Input that does not parse (cut off) keeps the start block's own input.
  return parsed.argsError === undefined ? { ...start, input: parsed.args } : start;
}

function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}

function malformed(context: AnthropicMessagesErrorContext, what: string, midStream: boolean, kind: 'server' | 'network' = 'server'): ProviderError {
  return new ProviderError({
    kind,
    message: `${context.provider} (anthropic-messages): ${what}`,
    provider: context.provider,
    model: context.model,
    midStream,
  });
}

/** ProviderError is immutable; copy it with the stream position filled in. */
