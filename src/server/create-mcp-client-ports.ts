import type { SessionManager } from '../session/session-manager.js';
import { sampleForMcpServer } from '../session/sample-for-mcp-server.js';
import type { McpClientPorts } from '../tools/mcp/mcp-client-ports.js';
import { createClientElicitor } from './ask-client-elicitation.js';
import type { ClientConnection } from './client-connection.js';

/**
 * What MCP servers may ask of agentd, answered from the sessions: roots are a session's
 * directories, sampling runs on its model, forms go to its clients. The manager is built before the sessions, so
 * they are reached through a getter.
 */
export function createMcpClientPorts(sessions: () => SessionManager, clients: ReadonlySet<ClientConnection>): McpClientPorts {
  return {
    elicit: createClientElicitor(clients, (id) => sessions().get(id)?.promptOrigin, (id) => sessions().rootOf(id)),
    roots(sessionId) {
      const session = sessions().get(sessionId);
      return session ? [session.record.cwd, ...session.record.additionalDirectories] : [];
    },
    sample({ sessionId, params, signal }) {
      const session = sessions().get(sessionId);
      if (!session) return Promise.reject(new Error(`session ${sessionId} is not open`));
      return sampleForMcpServer(session, params, signal);
    },
  };
}
