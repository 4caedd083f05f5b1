import type { ContentBlock } from '../../protocol/index.js';
import type { LoopEvent, TurnStopReason } from '../loop/loop-event.js';

/**
 * Everything that happens in a session, in order, as one stream. The server maps each
 * event to ACP `session/update` notifications (and `agentd/event` for clients that
 * opted in) for every connection attached to the session.
 */
export type SessionEvent =
  | LoopEvent
  /** A prompt was committed; `content` is what the user sent, as ACP blocks; `origin` names the sender's connection. */
  | { type: 'user_message'; messageId: string; content: ContentBlock[]; origin?: string }
  /** The loop started working on a prompt. */
  | { type: 'turn_start'; turnId: string }
  /** The steering or follow-up queue changed. */
  | { type: 'queue'; steering: number; followUp: number; items: Array<{ queue: 'steering' | 'followUp'; preview: string }> }
  /** The session's title was set (from its first prompt). */
  | { type: 'session_info'; title: string }
  /** The session's mode (agent) changed. */
  | { type: 'mode_changed'; modeId: string }
  /** The session's model or a queue's delivery mode changed (the mode has mode_changed). */
  | { type: 'settings_changed' }
  /**
   * An MCP server the session sees, as the entry "Start MCP server <server>" (an ACP tool
   * call, which every client renders; never part of the conversation): a turn waiting
   * for it, and each failure to start. `opens` marks the entry's first event.
   */
  | { type: 'mcp_server_start'; toolCallId: string; server: string; status: 'in_progress' | 'completed' | 'failed'; message: string; opens: boolean }
  /** The loop finished a prompt. */
  | { type: 'turn_end'; turnId: string; stopReason: TurnStopReason; error?: string };
