import type { Conversation } from '../loop/conversation.js';
import type { TurnPort } from '../loop/loop-context.js';
import type { ToolHost } from '../project/project-tools.js';
import type { RunOverrides } from '../project/run-overrides.js';
import type { SessionRecord } from '../store/store.js';
import { compactionMarker } from './compaction-marker.js';
import type { LiveProject } from './live-project.js';
import type { PromptQueues } from './prompt-queues.js';
import type { SessionEvent } from './session-event.js';
import type { SessionWriter } from './session-writer.js';

/** The parts of a session its loop reaches through the turn port. */
export interface SessionTurnPortParts {
  writer: SessionWriter;
  conversation: Conversation;
  queues: PromptQueues;
  live: LiveProject;
  toolHost: ToolHost;
  record(): SessionRecord;
  /** The running turn's own settings, if it has any. */
  run(): RunOverrides | undefined;
  emit(event: SessionEvent): void;
}

/**
 * How the loop reaches its session: commits go to the store before the conversation
 * grows, a compaction is stored with the marker a later load resumes from, queued
 * prompts are taken, and each request's settings are read as the project is now.
 */
export function sessionTurnPort(parts: SessionTurnPortParts): TurnPort {
  const { writer, conversation, queues, live, toolHost } = parts;
  return {
    commit: async (message, meta) => {
      await writer.commit(message, meta);
      conversation.append(message);
    },
    compacted: async (result, priced) => {
      // The store keeps every message; the marker tells a later load where to resume from.
      const [summary] = result.newHistory;
      if (summary?.role === 'user') {
        await writer.commit(summary, { status: 'complete', ...priced, meta: compactionMarker(result, conversation.messages) });
      }
      conversation.replace(result.newHistory);
    },
    emit: (event) => parts.emit(event),
    take: (queue) => queues.take(queue).map((item) => item.message),
    settingsForNextRequest: (current) =>
      live.settingsForNextRequest(parts.record(), current, toolHost, (message) => parts.emit({ type: 'notice', level: 'warning', message }), parts.run()),
  };
}
