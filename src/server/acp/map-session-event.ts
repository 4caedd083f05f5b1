import type { AgentdEvent, AgentdEventNotification, SessionNotification, SessionUpdate, ToolCallContent } from '../../../protocol/index.js';
import type { SessionEvent } from '../../session/session-event.js';

/** One notification to send, typed by the protocol's schemas. */
export type OutgoingNotification =
  | { method: 'session/update'; params: SessionNotification }
  | { method: 'agentd/event'; params: AgentdEventNotification };

export interface EventAudience {
  /** The connection's id, to skip echoing a user's own prompt back to it. */
  clientId: string;
  /** Opted in to `agentd/event` at initialize. */
  wantsEvents: boolean;
  /** Declared `session.notices` in its ACP client capabilities. */
  acceptsNotices: boolean;
  /** Declared `session.compaction` in its ACP client capabilities. */
  acceptsCompaction: boolean;
}

/**
 * Maps one session event to what a given client receives: ACP `session/update` for
 * everything ACP can carry, `agentd/event` for the rest (only to clients that opted
 * in). Each chunk carries only its own text, so a delta costs O(its size) on the wire.
 */
export function mapSessionEvent(sessionId: string, event: SessionEvent, to: EventAudience): OutgoingNotification[] {
  const update = (u: SessionUpdate): OutgoingNotification => ({
    method: 'session/update',
    params: { sessionId, update: u },
  });
  const rich = (e: AgentdEvent): OutgoingNotification[] =>
    to.wantsEvents ? [{ method: 'agentd/event', params: { sessionId, event: e } }] : [];

  switch (event.type) {
    case 'text_delta':
      return [update({ sessionUpdate: 'agent_message_chunk', messageId: event.messageId, content: { type: 'text', text: event.text } })];
    case 'thinking_delta':
      return [update({ sessionUpdate: 'agent_thought_chunk', messageId: event.messageId, content: { type: 'text', text: event.text } })];
    case 'user_message':
      if (event.origin === to.clientId) return [];
      return event.content.map((content) =>
        update({ sessionUpdate: 'user_message_chunk', messageId: event.messageId, content }),
      );
    case 'usage':
      return [
        update({
          sessionUpdate: 'usage_update',
          used: event.contextTokens,
          size: event.contextWindow,
          cost: { amount: event.sessionCostUsd, currency: 'USD' },
        }),
        ...rich({
          type: 'cost',
          turnUsd: event.turnCostUsd,
          sessionUsd: event.sessionCostUsd,
          daemonUsd: event.daemonCostUsd,
          usage: event.usage,
        }),
      ];
    case 'turn_start':
      return rich({ type: 'turn_start', turnId: event.turnId });
    case 'turn_end':
      return rich({ type: 'turn_end', turnId: event.turnId, stopReason: event.stopReason, ...(event.error ? { error: event.error } : {}) });
    case 'retry':
      return rich({
        type: 'retry',
        attempt: event.attempt,
        delayMs: event.delayMs,
        reason: event.error.message,
        provider: event.error.provider,
        ...(event.error.model !== undefined ? { model: event.error.model } : {}),
      });
    case 'fallback':
      return rich({ type: 'fallback', from: event.from, to: event.to, reason: event.error.message });
    case 'breaker':
      return rich({ type: 'breaker', provider: event.provider, state: event.state });
    case 'notice':
      return [
        ...(to.acceptsNotices
          ? [update({ sessionUpdate: 'notice', severity: event.level, title: event.message })]
          : []),
        ...rich({ type: 'notice', level: event.level, message: event.message }),
      ];
    case 'tool_call':
      return [
        update({
          sessionUpdate: 'tool_call',
          toolCallId: event.toolCallId,
          title: event.title,
          kind: event.kind,
          status: 'pending',
          rawInput: event.rawInput,
          locations: event.locations,
        }),
      ];
    case 'tool_call_update':
      return [
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: event.toolCallId,
          status: event.status,
          ...(event.content ? { content: event.content } : {}),
          ...(event.rawOutput !== undefined ? { rawOutput: event.rawOutput } : {}),
        }),
      ];
    case 'mcp_server_start': {
      const content: ToolCallContent[] = [{ type: 'content', content: { type: 'text', text: event.message } }];
      const { toolCallId, status } = event;
      return [
        event.opens
          ? update({ sessionUpdate: 'tool_call', toolCallId, title: `Start MCP server ${event.server}`, kind: 'other', status, content, rawInput: { server: event.server } })
          : update({ sessionUpdate: 'tool_call_update', toolCallId, status, content }),
      ];
    }
    case 'plan':
      return [update({ sessionUpdate: 'plan', entries: event.entries })];
    case 'queue':
      return rich({ type: 'queue', steering: event.steering, followUp: event.followUp, items: event.items });
    case 'session_info':
      return [update({ sessionUpdate: 'session_info_update', title: event.title })];
    case 'mode_changed':
      return [update({ sessionUpdate: 'current_mode_update', currentModeId: event.modeId })];
    case 'settings_changed':
      // The options' new state is the session's, not the event's: attachSession sends it.
      return [];
    case 'compaction': {
      const status = event.status === 'started' ? 'in_progress' : event.status;
      return [
        ...(to.acceptsCompaction
          ? [update({ sessionUpdate: 'compaction_update', compactionId: event.compactionId, status, ...(event.error ? { error: event.error } : {}) })]
          : []),
        ...rich({
          type: 'compaction',
          status: event.status,
          ...(event.tokensBefore !== undefined ? { tokensBefore: event.tokensBefore } : {}),
          ...(event.tokensAfter !== undefined ? { tokensAfter: event.tokensAfter } : {}),
          ...(event.error ? { error: event.error } : {}),
        }),
      ];
    }
    case 'message_committed':
      return [];
  }
}
