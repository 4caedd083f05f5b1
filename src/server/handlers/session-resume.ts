import { specsFromAcp } from '../../tools/mcp/mcp-server-spec.js';
import { attachSession } from '../attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { sessionConfigOptions, sessionModes } from '../session-choices.js';
import { RpcError } from '../rpc-error.js';
import { openSession } from './open-session.js';

/** Follows a session again without replaying its history (ACP session/resume). */
export const sessionResume: RequestHandler<'session/resume'> = async (params, { client, daemon }) => {
  let mcpServers;
  try {
    mcpServers = specsFromAcp(params.mcpServers ?? [], params.cwd);
  } catch (error) {
    throw RpcError.invalidParams('session/resume', [(error as Error).message]);
  }
  const session = openSession(daemon, params.sessionId);
  await daemon.mcp.configuredStarted();
  await daemon.mcp.startSession(session.id, mcpServers);
  attachSession(client, session);
  return {
    modes: sessionModes(session),
    configOptions: sessionConfigOptions(session, daemon) as never,
    _meta: { agentd: { state: session.state } },
  };
};
