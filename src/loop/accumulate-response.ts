import type { AssistantContentPart, AssistantMessage, ThinkingPart } from '../providers/message.js';
import type { ProviderError } from '../providers/provider-error.js';
import type { StopReason } from '../providers/stop-reason.js';
import type { StreamEvent } from '../providers/stream-event.js';
import type { Usage } from '../providers/usage.js';
import { normalizeToolCall } from './normalize-tool-call.js';

/**
 * What clients are shown between two text parts of one message (blocks the vendor kept
 * apart, e.g. around a server-tool call), so that their words do not run together. The
 * stored parts stay as the vendor sent them; live and replayed updates both carry it.
 */
export const TEXT_PART_SEPARATOR = '\n\n';

/** The result of reducing one provider stream. */
export interface AccumulatedResponse {
  message: AssistantMessage;
  stop: StopReason | undefined;
  usage: Usage | undefined;
  error: ProviderError | undefined;
}

/**
 * Folds unified stream events into the assistant message, in stream order. Deltas of
 * the same kind extend the last part (text only until a `text-end`); a tool call is added only when it is complete,
 * so a call cut off mid-arguments never reaches dispatch; a malformed one is made
 * well-formed with an argument error (normalizeToolCall).
 */
export class ResponseAccumulator {
  private readonly parts: AssistantContentPart[] = [];
  stop: StopReason | undefined;
  usage: Usage | undefined;
  error: ProviderError | undefined;
  /** A `text-end` closed the last text part: the next text begins a new one. */
  private textClosed = false;

  /** Whether a text delta pushed now would begin a new text part after an earlier one (so is shown after TEXT_PART_SEPARATOR). */
  opensLaterTextPart(): boolean {
    const last = this.parts.at(-1);
    const continues = last?.type === 'text' && !this.textClosed;
    return !continues && this.parts.some((part) => part.type === 'text');
  }

  push(event: StreamEvent): void {
    switch (event.type) {
      case 'text-delta': {
        const last = this.parts.at(-1);
        if (last?.type === 'text' && !this.textClosed) last.text += event.text;
        else this.parts.push({ type: 'text', text: event.text });
        this.textClosed = false;
        return;
      }
      case 'text-end':
        this.textClosed = true;
        return;
      case 'server-tool':
        this.parts.push({ type: 'server_tool', providerProtocol: event.providerProtocol, block: event.block });
        return;
      case 'thinking-delta': {
        const last = this.parts.at(-1);
        if (last?.type === 'thinking' && last.signature === undefined && last.redacted === undefined) last.text += event.text;
        else this.parts.push({ type: 'thinking', text: event.text });
        return;
      }
      case 'thinking-signature': {
        const last = this.parts.at(-1);
        const target: ThinkingPart =
          last?.type === 'thinking' && last.signature === undefined && last.redacted === undefined
            ? last
            : (this.parts[this.parts.push({ type: 'thinking', text: '' }) - 1] as ThinkingPart);
        if (event.signature !== undefined) target.signature = event.signature;
        if (event.redacted !== undefined) target.redacted = event.redacted;
        if (event.providerData !== undefined) target.providerData = event.providerData;
        return;
      }
      case 'tool-call-end':
        // Any vendor may send a call without a name or with arguments that are no object;
        // it is kept with an argument error, which dispatch answers to the model.
        this.parts.push(normalizeToolCall(event));
        return;
      case 'usage':
        this.usage = event.usage;
        return;
      case 'stop':
        this.stop = event.reason;
        return;
      case 'error':
        this.error = event.error;
        return;
      default:
        return;
    }
  }

  /** Tags reasoning with the protocol that produced it, so it is replayed only there. */
  result(protocol: string): AccumulatedResponse {
    for (const part of this.parts) if (part.type === 'thinking') part.providerProtocol ??= protocol;
    return { message: { role: 'assistant', content: this.parts }, stop: this.stop, usage: this.usage, error: this.error };
  }
}
