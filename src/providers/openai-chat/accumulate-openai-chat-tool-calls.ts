import { createHash } from 'node:crypto';
import { parseToolArguments } from '../parse-tool-arguments.js';
import type { StreamEvent } from '../stream-event.js';
import type { ChatToolCallDelta } from './openai-chat-stream-schema.js';

/** One call being assembled. */
interface PendingCall {
  /** The `index` the server gave it, when it gave one. */
  index: number | undefined;
  /** The id we announce: the vendor's, or a generated one when it sent none. */
  id: string;
  /** The vendor's own id, when it sent a non-empty one. */
  vendorId: string | undefined;
  name: string | undefined;
  /** Arguments text received so far. */
  args: string;
  /** `tool-call-start` has been emitted (it waits for the name). */
  started: boolean;
  ended: boolean;
}

/**
 * Assembles streamed tool calls into start/delta/end events, tolerating what
 * OpenAI-compatible servers actually send (the OpenAI format itself:
 * https://platform.openai.com/docs/guides/function-calling#streaming):
 *
 * - pieces matched by `index`; when `index` is missing, the piece continues the latest
 *   call unless it brings a new id, or a name while the latest call already has one;
 * - the same call repeated under several indexes with one id (LocalAI #9722), and one
 *   index reused for parallel calls with different ids: the id wins;
 * - missing or empty ids (Qwen/DashScope send `"id": ""` on continuation pieces,
 *   llama.cpp and others sometimes none at all): a stable `call_<n>_<hash>` is made
 *   from the response id and the stream position, so replaying a stream yields the
 *   same ids;
 * - arguments before the name (opencode #24137): held until the name arrives;
 * - cumulative snapshots instead of deltas (DeepSeek/Qianfan, vercel/ai #12052), and a
 *   final piece repeating the whole arguments (opencodex #361): a piece that starts
 *   with everything received so far only contributes its new suffix;
 * - the name repeated on every piece (plexus #719): the first name is kept.
 */
export class OpenAIChatToolCalls {
  private readonly calls: PendingCall[] = [];

  constructor(private readonly responseId: () => string) {}

  /** True once any call has been seen (even one still waiting for its name). */
  get hasCalls(): boolean {
    return this.calls.length > 0;
  }

  /** Fold one piece in; `position` is the ordinal of the SSE event carrying it. */
  push(piece: ChatToolCallDelta, position: number): StreamEvent[] {
    const events: StreamEvent[] = [];
    const vendorId = typeof piece.id === 'string' && piece.id !== '' ? piece.id : undefined;
    const name = typeof piece.function?.name === 'string' && piece.function.name !== '' ? piece.function.name : undefined;
    const fragment = typeof piece.function?.arguments === 'string' ? piece.function.arguments : '';
    const index = typeof piece.index === 'number' ? piece.index : undefined;

    let call = this.find(index, vendorId, name, fragment);
    if (call === undefined) {
      call = { index, id: '', vendorId, name: undefined, args: '', started: false, ended: false };
      call.id = vendorId ?? this.generateId(this.calls.length, position);
      this.calls.push(call);
    }
    if (call.ended) return events;
    if (call.vendorId === undefined && vendorId !== undefined) {
      call.vendorId = vendorId;
      if (!call.started) call.id = vendorId;
    }
    if (call.name === undefined && name !== undefined) call.name = name;

    const added = newSuffix(call.args, fragment);
    call.args += added;
    if (!call.started && call.name !== undefined) {
      call.started = true;
      events.push({ type: 'tool-call-start', id: call.id, name: call.name });
      if (call.args !== '') events.push({ type: 'tool-call-delta', id: call.id, argsDelta: call.args });
    } else if (call.started && added !== '') {
      events.push({ type: 'tool-call-delta', id: call.id, argsDelta: added });
    }
    return events;
  }

  /** End every open call, in the order they began, with its arguments parsed. */
  endAll(): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const call of this.calls) {
      if (call.ended) continue;
      call.ended = true;
      const name = call.name ?? '';
      if (!call.started) {
        events.push({ type: 'tool-call-start', id: call.id, name });
        if (call.args !== '') events.push({ type: 'tool-call-delta', id: call.id, argsDelta: call.args });
      }
      if (call.name === undefined) {
        events.push({
          type: 'tool-call-end',
          id: call.id,
          name,
          args: {},
          argsError: 'the server sent this tool call without a function name',
        });
        continue;
      }
      events.push({ type: 'tool-call-end', id: call.id, name, ...parseToolArguments(call.args, name) });
    }
    return events;
  }

  private find(index: number | undefined, vendorId: string | undefined, name: string | undefined, fragment: string): PendingCall | undefined {
    if (vendorId !== undefined) {
      const byId = this.calls.find((call) => call.vendorId === vendorId);
      if (byId !== undefined) return byId;
    }
    if (index !== undefined) {
      const byIndex = this.calls.findLast((call) => call.index === index);
      // A different id under a known index is a new parallel call reusing the index.
      if (byIndex !== undefined && (vendorId === undefined || byIndex.vendorId === undefined)) return byIndex;
      return undefined;
    }
    const latest = this.calls.at(-1);
    if (latest === undefined || vendorId !== undefined) return undefined;
    const repeatsLatest = latest.name === name && fragment.startsWith(latest.args) && latest.args !== '';
    if (name !== undefined && latest.name !== undefined && !repeatsLatest) return undefined;
    return latest;
  }

  private generateId(ordinal: number, position: number): string {
    const hash = createHash('sha256').update(`${this.responseId()}:${position}`).digest('hex').slice(0, 12);
    return `call_${ordinal}_${hash}`;
  }
}

/**
 * The part of `fragment` that is new. A fragment that starts with everything received
 * so far is a cumulative snapshot (or a repeat) and contributes only its suffix; a real
 * delta cannot start with a complete JSON prefix of itself except in contrived nesting.
 */
function newSuffix(received: string, fragment: string): string {
  if (received !== '' && fragment.startsWith(received)) return fragment.slice(received.length);
  return fragment;
}
