import { attachSession } from '../acp/attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { applyRequestedDirectories } from './open-with-directories.js';
import { sessionMcpSpecs, startSessionMcp } from './session-mcp.js';
import { sessionConfigOptions, sessionModes } from '../acp/session-choices.js';
import { replayHistory, sendReplayEvents } from '../acp/replay-history.js';
import { tellStandingProblems } from '../acp/tell-standing-problems.js';
import { describeToolCall } from '../../tools/describe-tool-call.js';
import { stateForClients } from '../../session/session-state.js';

/**
 * Replays the whole stored history as `session/update` notifications, then what a
 * running turn has streamed since its last stored message, then answers; from then on
 * the client gets the session's live updates.
 */
export const sessionLoad: RequestHandler<'session/load'> = async (params, { client, daemon }) => {
  const mcpServers = sessionMcpSpecs('session/load', params.mcpServers, params.cwd);
  await applyRequestedDirectories('session/load', daemon, params.sessionId, params.additionalDirectories ?? undefined);
  // The records a freshly loaded session was built from are the ones replayed: read once.
  // Read while none of its writes is in flight, so the replay and the live rest meet exactly.
  const { session, messages, turns } = await daemon.sessions.openWithMessages(params.sessionId);
  const mcp = startSessionMcp(daemon, session, mcpServers);
  // Calls stored before what clients were shown was kept with them: described by today's tools.
  const describe = (name: string, args: Record<string, unknown>) => describeToolCall(daemon.tools.get(name, session.id), name, args, session.record.cwd);
  // The stored history, then what a running turn has shown since its last stored message,
  // then the live rest: one synchronous step, so nothing is missed or sent twice.
  replayHistory(client, session.id, messages, turns, describe, session.record.title);
  // MCP servers that failed and stand failed (not being started again by this load) show again.
  sendReplayEvents(client, session.id, session.mcpServerFailures());
  attachSession(client, session, session.inFlightEvents());
  const interrupted = turns.filter((t) => t.status === 'interrupted').map((t) => t.id);
  const modes = sessionModes(session);
  const problems = tellStandingProblems(daemon, session);
  return {
    modes,
    configOptions: sessionConfigOptions(session),
    _meta: {
      agentd: {
        state: stateForClients(session.state),
        ...(session.currentTurnId ? { runningTurnId: session.currentTurnId } : {}),
        interruptedTurns: interrupted,
        mcpServers: mcp,
        ...(problems.length > 0 ? { problems } : {}),
      },
    },
  };
};
