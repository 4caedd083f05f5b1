import type { McpServerStatus } from '../tools/mcp/mcp-manager.js';
import { broadcastDaemonEvent } from './broadcast-daemon-event.js';
import type { DaemonContext } from './daemon-context.js';

/**
 * Makes MCP servers visible: every change of state is an `mcp_server` daemon event for
 * opted-in clients, and a session's own server that fails to start is a warning notice to
 * that session's clients (what a plain ACP client sees).
 */
export function reportMcpServerStates(daemon: DaemonContext): () => void {
  return daemon.mcp.onStateChange((status) => {
    broadcastDaemonEvent(daemon.clients, {
      type: 'mcp_server',
      name: status.name,
      ...(status.sessionId ? { sessionId: status.sessionId } : {}),
      state: status.state,
      tools: status.tools.length,
      ...(status.error ? { error: status.error } : {}),
    });
    if (status.sessionId && status.state === 'failed') {
      daemon.sessions.get(status.sessionId)?.publish({ type: 'notice', level: 'warning', message: failedMessage(status) });
    }
  });
}

function failedMessage(status: McpServerStatus): string {
  return `MCP server "${status.name}" failed to start${status.error ? `: ${status.error}` : ''}; its tools are not available in this session`;
}
