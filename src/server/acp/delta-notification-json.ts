import type { SessionEvent } from '../../session/session-event.js';

export type DeltaEvent = Extract<SessionEvent, { type: 'text_delta' | 'thinking_delta' }>;

/**
 * The wire text of the `session/update` that carries a streamed delta: exactly what
 * `JSON.stringify` makes of mapSessionEvent's notification in its JSON-RPC envelope, built
 * from a prefix made once per message (the envelope, the session and message ids), so a
 * delta costs one `JSON.stringify` of its own text. A reply streams one per read of the
 * vendor's body; this is the daemon's commonest line.
 */
export class DeltaNotificationJson {
  private kind: DeltaEvent['type'] | undefined;
  private messageId: string | undefined;
  private prefix = '';

  constructor(private readonly sessionId: string) {}

  /** The JSON-RPC message of this delta, serialized. */
  of(event: DeltaEvent): string {
    if (event.type !== this.kind || event.messageId !== this.messageId) {
      this.kind = event.type;
      this.messageId = event.messageId;
      const sessionUpdate = event.type === 'text_delta' ? 'agent_message_chunk' : 'agent_thought_chunk';
      this.prefix =
        `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(this.sessionId)},` +
        `"update":{"sessionUpdate":"${sessionUpdate}","messageId":${JSON.stringify(event.messageId)},"content":{"type":"text","text":`;
    }
    return `${this.prefix}${JSON.stringify(event.text)}}}}}`;
  }
}
