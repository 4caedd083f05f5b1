import type { DaemonEvent } from '../../protocol/index.js';
import { broadcastDaemonEvent } from '../server/acp/broadcast-daemon-event.js';
import type { DaemonContext } from '../server/daemon-context.js';

/**
 * Makes MCP servers visible: every change of state is an `mcp_server` daemon event for
 * opted-in clients (and the latest is kept for `daemon/health`), and goes to the live sessions that see the server (every session for
 * a config server, its own for a session's), which show a failure to start in their
 * stream as a failed "Start MCP server X" entry, what every ACP client renders.
 */
export function reportMcpServerStates(daemon: DaemonContext): () => void {
  return daemon.mcp.onStateChange((status) => {
    const event: DaemonEvent = {
      type: 'mcp_server',
      name: status.name,
      ...(status.sessionId ? { sessionId: status.sessionId } : {}),
      state: status.state,
      tools: status.tools.length,
      ...(status.error ? { error: status.error } : {}),
    };
    daemon.healthLog.daemonEvent(event);
    broadcastDaemonEvent(daemon.clients, event);
    const sessions = status.sessionId === undefined ? daemon.sessions.liveSessions() : [daemon.sessions.get(status.sessionId)];
    for (const session of sessions) session?.showMcpServer(status);
  });
}
