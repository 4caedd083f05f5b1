import path from 'node:path';
import type { LiveSessions } from '../session/live-sessions.js';
import { sampleForMcpServer } from '../session/sample-for-mcp-server.js';
import { findSensitive } from '../tools/access/access-policy.js';
import type { McpClientPorts } from '../tools/mcp/mcp-client-ports.js';
import { realpathLoose } from '../tools/access/realpath-loose.js';
import { createClientElicitor } from '../server/acp/ask-client-elicitation.js';
import type { ClientConnection } from '../server/wire/client-connection.js';

/**
 * What MCP servers may ask of agentd, answered from the sessions: roots are a session's
 * directories, sampling runs on its model, forms go to its clients — none for a session
 * running a scheduled run (`headless`, root ids), which asks nobody, not even a client
 * that opened it.
 */
export function createMcpClientPorts(sessions: LiveSessions, clients: ReadonlySet<ClientConnection>, headless: ReadonlySet<string>): McpClientPorts {
  const elicit = createClientElicitor(clients, (id) => sessions.get(id)?.promptOrigin, (id) => sessions.rootOf(id));
  return {
    elicit(request) {
      const root = sessions.rootOf(request.sessionId);
      if (!headless.has(root)) return elicit(request);
      return Promise.reject(new Error(`session ${root} is running a scheduled run, which is headless: nobody is asked to fill in MCP server "${request.server}"'s form`));
    },
    async roots(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) return [];
      const dirs = [session.record.cwd, ...session.record.additionalDirectories];
      // A directory inside what the sandbox hides (~/.ssh, agentd's own folders) is never offered.
      const real = await Promise.all(dirs.map((dir) => realpathLoose(path.resolve(dir))));
      const policy = session.project.accessPolicy(sessionId);
      const hidden = await Promise.all(dirs.map((dir, i) => findSensitive(policy, [dir, real[i]!], real, 'read')));
      return dirs.filter((_, i) => hidden[i] === undefined);
    },
    sample({ sessionId, params, signal }) {
      const session = sessions.get(sessionId);
      if (!session) return Promise.reject(new Error(`session ${sessionId} is not open`));
      return sampleForMcpServer(session, params, signal);
    },
  };
}
