import { formatJsonPath } from '../../../protocol/format-json-path.js';
import { isSemanticEvent } from '../http/is-semantic-event.js';
import { markMidStream } from '../http/mark-mid-stream.js';
import type { StreamParser } from '../http/stream-through-parser.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import { bedrockError, readBedrockErrorMessage, type BedrockErrorContext } from './bedrock-error.js';
import { bedrockEventSchemas, isBedrockEventType, type BedrockEvent } from './bedrock-stream-schema.js';
import { toUnifiedBedrockUsage } from './bedrock-usage.js';
import { EventStreamDecoder, type EventStreamMessage } from './decode-event-stream.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';

/** What is known about one open content block, by its `contentBlockIndex`. */
type Block = { kind: 'text' } | { kind: 'reasoning'; signature: string; redacted: string } | { kind: 'tool'; id: string; name: string; json: string };

/**
 * The ConverseStream response as a pure object: event-stream bytes in, unified events out
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
 * Sequence: messageStart, per block contentBlockStart (tool use only) / contentBlockDelta* /
 * contentBlockStop, messageStop (stopReason), metadata (usage, metrics). An `exception`
 * message (`:exception-type`) or an `error` message ends the stream with that error; a
 * frame that breaks the encoding (bad CRC, impossible length) or a body that ends inside
 * a frame or before messageStop is a provider error, never a hang.
 */
export function parseBedrockStream(context: BedrockErrorContext): StreamParser {
  const decoder = new EventStreamDecoder();
  const blocks = new Map<number, Block>();
  let out: StreamEvent[] = [];
  let finished = false;
  let emittedContent = false;
  let stopReason: string | undefined;

  const emit = (event: StreamEvent): void => {
    if (finished) return;
    if (event.type === 'stop' || event.type === 'error') finished = true;
    else if (isSemanticEvent(event)) emittedContent = true;
    out.push(event);
  };
  const fail = (error: ProviderError): void => emit({ type: 'error', error: emittedContent ? markMidStream(error) : error });
  const malformed = (what: string, kind: 'server' | 'network' = 'server'): ProviderError =>
    new ProviderError({ kind, message: `${context.provider} (bedrock): the stream sent ${what}`, provider: context.provider, model: context.model });

  function onMessage(message: EventStreamMessage): void {
    const messageType = message.headers[':message-type'];
    const payload = new TextDecoder().decode(message.payload);
    if (messageType === 'exception') {
      const name = String(message.headers[':exception-type'] ?? 'exception');
      fail(bedrockError(context, name, readBedrockErrorMessage(payload).message, { midStream: emittedContent }));
      return;
    }
    if (messageType === 'error') {
      const name = String(message.headers[':error-code'] ?? 'error');
      fail(bedrockError(context, name, String(message.headers[':error-message'] ?? payload), { midStream: emittedContent }));
      return;
    }
    const type = message.headers[':event-type'];
    // Event types added after this was written are skipped, as the SDKs skip unknown union members.
    if (typeof type !== 'string' || !isBedrockEventType(type)) return;
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      fail(malformed(`a "${type}" event whose payload is not JSON: ${clip(payload)}`));
      return;
    }
    const checked = bedrockEventSchemas()[type].safeParse(json);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const field = issue === undefined ? '' : ` at ${formatJsonPath(issue.path)} (${issue.message})`;
      fail(malformed(`a "${type}" event that does not fit the Converse format${field}: ${clip(payload)}`));
      return;
    }
    handle({ type, value: checked.data } as BedrockEvent);
  }

  function handle(event: BedrockEvent): void {
    switch (event.type) {
      case 'messageStart':
        return;
      case 'contentBlockStart': {
        const tool = event.value.start?.toolUse;
        if (tool === undefined) return;
        blocks.set(event.value.contentBlockIndex, { kind: 'tool', id: tool.toolUseId, name: tool.name, json: '' });
        emit({ type: 'tool-call-start', id: tool.toolUseId, name: tool.name });
        return;
      }
      case 'contentBlockDelta':
        return applyDelta(event.value.contentBlockIndex, event.value.delta);
      case 'contentBlockStop':
        return stopBlock(event.value.contentBlockIndex);
      case 'messageStop':
        stopReason = event.value.stopReason;
        return;
      case 'metadata':
        // The last event: usage comes after messageStop, so the stop waits for it.
        if (event.value.usage !== undefined) emit({ type: 'usage', usage: toUnifiedBedrockUsage(event.value.usage) });
        if (stopReason !== undefined) emit({ type: 'stop', reason: mapBedrockStopReason(stopReason) });
        return;
    }
  }

  function applyDelta(index: number, delta: Extract<BedrockEvent, { type: 'contentBlockDelta' }>['value']['delta']): void {
    let block = blocks.get(index);
    if (delta.text !== undefined) {
      if (block === undefined) blocks.set(index, (block = { kind: 'text' }));
      if (block.kind === 'text' && delta.text !== '') emit({ type: 'text-delta', text: delta.text });
    } else if (delta.toolUse !== undefined) {
      if (block?.kind === 'tool' && delta.toolUse.input !== '') {
        block.json += delta.toolUse.input;
        emit({ type: 'tool-call-delta', id: block.id, argsDelta: delta.toolUse.input });
      }
    } else if (delta.reasoningContent !== undefined) {
      if (block === undefined) blocks.set(index, (block = { kind: 'reasoning', signature: '', redacted: '' }));
      if (block.kind !== 'reasoning') return;
      const { text, signature, redactedContent } = delta.reasoningContent;
      if (text !== undefined && text !== '') emit({ type: 'thinking-delta', text });
      if (signature !== undefined) block.signature += signature;
      if (redactedContent !== undefined) block.redacted += redactedContent;
    }
  }

  function stopBlock(index: number): void {
    const block = blocks.get(index);
    blocks.delete(index);
    if (block?.kind === 'text') emit({ type: 'text-end' });
    else if (block?.kind === 'reasoning' && block.redacted !== '') emit({ type: 'thinking-signature', redacted: block.redacted });
    else if (block?.kind === 'reasoning' && block.signature !== '') emit({ type: 'thinking-signature', signature: block.signature });
    else if (block?.kind === 'tool') emit({ type: 'tool-call-end', id: block.id, name: block.name, ...parseToolArguments(block.json, block.name) });
  }

  const drain = (): StreamEvent[] => {
    const events = out;
    out = [];
    return events;
  };

  return {
    push() {
      // The body is binary: streamThroughParser hands it to pushBytes.
      return drain();
    },
    pushBytes(chunk) {
      if (finished) return drain();
      const { messages, error } = decoder.push(chunk);
      for (const message of messages) {
        onMessage(message);
        if (finished) return drain();
      }
      if (error !== undefined) fail(malformed(error.message));
      return drain();
    },
    end() {
      if (finished) return drain();
      if (decoder.pendingBytes > 0) fail(malformed(`a message cut off after ${decoder.pendingBytes} bytes (connection closed early)`, 'network'));
      // metadata is optional bookkeeping: a stream that ended after messageStop is complete.
      else if (stopReason !== undefined) emit({ type: 'stop', reason: mapBedrockStopReason(stopReason) });
      else fail(malformed('no messageStop before the body ended (connection closed early)', 'network'));
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

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
