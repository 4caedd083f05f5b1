import { isCompactionRecord } from '../session/compaction-marker.js';
import type { MessageRecord, TurnRecord } from '../store/store.js';
import type { ClientConnection } from './client-connection.js';

type Part = { type: string; [key: string]: unknown };

/**
 * Sends a stored conversation to a client as `session/update` notifications, in order,
 * the way ACP `session/load` requires. Messages of a turn the daemon never finished
 * (killed mid-turn) carry `_meta.agentd.interrupted`.
 */
export function replayHistory(client: ClientConnection, sessionId: string, messages: MessageRecord[], turns: TurnRecord[]): void {
  const interruptedTurns = new Set(turns.filter((t) => t.status === 'interrupted').map((t) => t.id));
  const send = (update: Record<string, unknown>): void => client.rpc.notify('session/update', { sessionId, update });

  for (const message of messages) {
    // Compaction summaries are the daemon's bookkeeping, not part of the conversation shown.
    if (isCompactionRecord(message)) continue;
    const interrupted = message.status === 'interrupted' || interruptedTurns.has(message.turnId);
    const meta = { _meta: { agentd: { turnId: message.turnId, ...(interrupted ? { interrupted: true } : {}) } } };
    if (message.role === 'user') {
      const acp = (message.meta as { acp?: unknown[] } | null)?.acp;
      const blocks = Array.isArray(acp) ? acp : (message.content as Part[]).map(toAcpBlock);
      for (const content of blocks) send({ sessionUpdate: 'user_message_chunk', messageId: message.id, content, ...meta });
      continue;
    }
    for (const part of message.content as Part[]) {
      if (message.role === 'assistant') {
        if (part.type === 'text') {
          send({ sessionUpdate: 'agent_message_chunk', messageId: message.id, content: { type: 'text', text: part.text }, ...meta });
        } else if (part.type === 'thinking' && typeof part.text === 'string' && part.text !== '') {
          send({ sessionUpdate: 'agent_thought_chunk', messageId: message.id, content: { type: 'text', text: part.text }, ...meta });
        } else if (part.type === 'tool_call') {
          send({ sessionUpdate: 'tool_call', toolCallId: part.id, title: String(part.name), rawInput: part.args, status: 'pending', ...meta });
        }
      } else if (part.type === 'tool_result') {
        const content = (part.content as Part[]).map((c) => ({ type: 'content', content: toAcpBlock(c) }));
        send({
          sessionUpdate: 'tool_call_update',
          toolCallId: part.toolCallId,
          status: part.isError ? 'failed' : 'completed',
          content,
          ...meta,
        });
      }
    }
  }
}

function toAcpBlock(part: Part): Record<string, unknown> {
  if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mimeType };
  return { type: 'text', text: typeof part.text === 'string' ? part.text : JSON.stringify(part) };
}
