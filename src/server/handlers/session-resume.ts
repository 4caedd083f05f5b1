import { attachSession } from '../acp/attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { openWithDirectories } from './open-with-directories.js';
import { sessionMcpSpecs, startSessionMcp } from './session-mcp.js';
import { sessionConfigOptions, sessionModes } from '../acp/session-choices.js';
import { stateForClients } from '../../session/session-state.js';

/** Follows a session again without replaying its history (ACP session/resume). */
export const sessionResume: RequestHandler<'session/resume'> = async (params, { client, daemon }) => {
  const mcpServers = sessionMcpSpecs('session/resume', params.mcpServers, params.cwd);
  const session = await openWithDirectories('session/resume', daemon, params.sessionId, params.additionalDirectories ?? undefined);
  const mcp = startSessionMcp(daemon, session, mcpServers);
  attachSession(client, session);
  return {
    modes: sessionModes(session),
    configOptions: sessionConfigOptions(session),
    _meta: { agentd: { state: stateForClients(session.state), mcpServers: mcp } },
  };
};
