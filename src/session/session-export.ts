import type { MessageRecord, SessionRecord, TurnRecord } from '../store/store.js';
import { renderSessionMarkdown } from './render-session-markdown.js';

export type SessionExportFormat = 'markdown' | 'json';

/** A session written out as a file: its suggested name, its media type and its text. */
export interface SessionExport {
  fileName: string;
  mimeType: string;
  content: string;
}

/**
 * The file `agentd sessions export -o FILE` writes and a client's export offers: the
 * Markdown transcript with every tool result whole, or the session as stored (its record,
 * turns and messages) as JSON.
 */
export function exportSession(session: SessionRecord, turns: TurnRecord[], messages: MessageRecord[], format: SessionExportFormat): SessionExport {
  const base = `agentd-session-${session.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (format === 'json') {
    return { fileName: `${base}.json`, mimeType: 'application/json', content: `${JSON.stringify({ session, turns, messages }, null, 2)}\n` };
  }
  return { fileName: `${base}.md`, mimeType: 'text/markdown; charset=utf-8', content: renderSessionMarkdown(session, messages, { full: true }) };
}
