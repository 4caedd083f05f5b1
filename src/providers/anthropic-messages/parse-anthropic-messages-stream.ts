import { z } from 'zod';
import { parseSseJsonStream, type StreamSink } from '../http/parse-sse-json-stream.js';
import type { StreamParser } from '../http/stream-through-parser.js';
import { ProviderError } from '../provider-error.js';
import { anthropicMessagesStreamError, type AnthropicMessagesErrorContext } from './anthropic-messages-error.js';
import type { AnthropicUsage } from './anthropic-messages-types.js';
import { anthropicStreamSchemas, type AnthropicStreamBlock, type AnthropicStreamDelta, type AnthropicStreamEvent } from './anthropic-messages-stream-schema.js';
import { ANTHROPIC_MESSAGES_PROTOCOL } from './convert-to-anthropic-messages.js';
import { isPlainAnthropicDelta } from './is-plain-anthropic-delta.js';
import { mergeAnthropicMessagesUsage, toUnifiedUsage } from './anthropic-messages-usage.js';
import { mapAnthropicMessagesStopReason } from './map-anthropic-messages-stop-reason.js';
import { parseToolArguments } from '../parse-tool-arguments.js';

/** Built on the first event (the schemas are built on first use; a model's prepare() or the request's send builds them sooner). */
const eventSchema = z.lazy(() => anthropicStreamSchemas().event);

/** The Anthropic Messages SSE stream as a pure object: decoded text in, unified events out. */
export type AnthropicMessagesStreamParser = StreamParser;

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
 * `ping` may appear anywhere and `error` may end a 200 stream. Unknown event and delta
 * types are skipped, as the docs ask clients to do; a block of a type not read here that
 * is no server-tool block is skipped with a notice, since it may be something the user
 * expected to happen.
 */
export function parseAnthropicMessagesStream(context: AnthropicMessagesErrorContext): AnthropicMessagesStreamParser {
  const blocks = new Map<number, Block>();
  let usage: AnthropicUsage | undefined;
  let stopReason: string | null | undefined;
  let sawMessageDelta = false;

  function finishWithStop(sink: StreamSink): void {
    if (usage !== undefined) sink.emit({ type: 'usage', usage: toUnifiedUsage(usage) });
    sink.emit({ type: 'stop', reason: mapAnthropicMessagesStopReason(stopReason) });
  }

  function handle(event: AnthropicStreamEvent, sink: StreamSink): void {
    switch (event.type) {
      case 'message_start':
        if (event.message?.usage) usage = { ...event.message.usage };
        return;
      case 'content_block_start':
        return startBlock(event.index, event.content_block, sink);
      case 'content_block_delta':
        return applyDelta(event.index, event.delta, sink);
      case 'content_block_stop':
        return stopBlock(event.index, sink);
      case 'message_delta':
        sawMessageDelta = true;
        if (typeof event.delta?.stop_reason === 'string') stopReason = event.delta.stop_reason;
        // message_delta usage is cumulative: each present field replaces the earlier value.
        if (event.usage) usage = mergeAnthropicMessagesUsage(usage, event.usage);
        return;
      case 'message_stop':
        return finishWithStop(sink);
      case 'error':
        sink.emit({ type: 'error', error: anthropicMessagesStreamError(context, event.error, sink.emittedContent) });
        return;
    }
  }

  function startBlock(index: number, block: AnthropicStreamBlock, sink: StreamSink): void {
    switch (block.type) {
      case 'text':
        blocks.set(index, { kind: 'text' });
        if (typeof block.text === 'string' && block.text !== '') sink.emit({ type: 'text-delta', text: block.text });
        return;
      case 'thinking':
        blocks.set(index, { kind: 'thinking', signature: block.signature ?? '' });
        if (typeof block.thinking === 'string' && block.thinking !== '') sink.emit({ type: 'thinking-delta', text: block.thinking });
        return;
      case 'redacted_thinking':
        // Arrives whole; it must be replayed unchanged (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
        blocks.set(index, { kind: 'other' });
        sink.emit({ type: 'thinking-signature', redacted: block.data ?? '' });
        return;
      case 'tool_use': {
        const id = typeof block.id === 'string' && block.id !== '' ? block.id : `toolu_${index}`;
        const name = block.name ?? '';
        blocks.set(index, { kind: 'tool', id, name, json: '', startInput: block.input });
        sink.emit({ type: 'tool-call-start', id, name });
        return;
      }
      case 'other':
        if (isServerToolBlock(block.blockType)) {
          blocks.set(index, { kind: 'server', block: block.block, json: '' });
          return;
        }
        blocks.set(index, { kind: 'other' });
        sink.emit({ type: 'notice', message: `The model sent a content block agentd does not read: ${block.blockType}. It was ignored.` });
    }
  }

  function applyDelta(index: number, delta: AnthropicStreamDelta, sink: StreamSink): void {
    const block = blocks.get(index);
    if (block === undefined) return;
    if (delta.type === 'text_delta' && block.kind === 'text' && typeof delta.text === 'string' && delta.text !== '') {
      sink.emit({ type: 'text-delta', text: delta.text });
    } else if (delta.type === 'thinking_delta' && block.kind === 'thinking' && typeof delta.thinking === 'string' && delta.thinking !== '') {
      sink.emit({ type: 'thinking-delta', text: delta.thinking });
    } else if (delta.type === 'signature_delta' && block.kind === 'thinking' && typeof delta.signature === 'string') {
      block.signature += delta.signature;
    } else if (delta.type === 'input_json_delta' && block.kind === 'server' && typeof delta.partial_json === 'string') {
      block.json += delta.partial_json;
    } else if (delta.type === 'input_json_delta' && block.kind === 'tool' && typeof delta.partial_json === 'string' && delta.partial_json !== '') {
      block.json += delta.partial_json;
      sink.emit({ type: 'tool-call-delta', id: block.id, argsDelta: delta.partial_json });
    }
  }

  function stopBlock(index: number, sink: StreamSink): void {
    const block = blocks.get(index);
    blocks.delete(index);
    if (block?.kind === 'text') {
      sink.emit({ type: 'text-end' });
    } else if (block?.kind === 'server') {
      sink.emit({ type: 'server-tool', providerProtocol: 'anthropic-messages', block: serverToolBlock(block.block, block.json) });
    } else if (block?.kind === 'thinking' && block.signature !== '') {
      sink.emit({ type: 'thinking-signature', signature: block.signature });
    } else if (block?.kind === 'tool') {
      // Streams carry `input: {}` on the start block and the real input as deltas; a proxy
      // that puts the whole input on the start block instead is honoured too.
      if (block.json === '' && isNonEmptyObject(block.startInput)) {
        block.json = JSON.stringify(block.startInput);
        sink.emit({ type: 'tool-call-delta', id: block.id, argsDelta: block.json });
      }
      sink.emit({ type: 'tool-call-end', id: block.id, name: block.name, ...parseToolArguments(block.json, block.name) });
    }
  }

  return parseSseJsonStream({
    protocol: ANTHROPIC_MESSAGES_PROTOCOL,
    context,
    schema: eventSchema,
    // `ping` and event types added after this was written are skipped, as the docs ask.
    reads: (json) => typeof json.type === 'string' && anthropicStreamSchemas().eventTypes.has(json.type),
    plain: isPlainAnthropicDelta,
    onEvent: handle,
    onEnd(sink) {
      // Everything after message_delta is bookkeeping: a stream cut after it is complete.
      if (sawMessageDelta) finishWithStop(sink);
      else sink.fail(new ProviderError({
        kind: 'network',
        message: `${context.provider} (anthropic-messages): the stream ended before message_stop (connection closed early)`,
        provider: context.provider,
        model: context.model,
      }));
    },
  });
}

/**
 * Blocks Anthropic's server tools produce in the answer: `server_tool_use`, `mcp_tool_use`,
 * and their `*_tool_result` blocks (web search, web fetch, code execution, ...). They must be replayed unchanged
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool).
 */
function isServerToolBlock(type: string): boolean {
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
