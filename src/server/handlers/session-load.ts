import { attachSession } from '../acp/attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { applyRequestedDirectories } from './open-with-directories.js';
import { sessionMcpSpecs, startSessionMcp } from './session-mcp.js';
import { sessionConfigOptions, sessionModes } from '../acp/session-choices.js';
import { replayHistory, sendReplayEvents } from '../acp/replay-history.js';
import { tellStandingProblems } from '../acp/tell-standing-problems.js';
import { describeToolCall } from '../../tools/describe-tool-call.js';
import type { CrossDaemonUpdates } from '../../session/cross-daemon-updates.js';
import type { Session } from '../../session/session.js';
import type { SessionEvent } from '../../session/session-event.js';
import { stateForClients } from '../../session/session-state.js';
import type { MessageRecord, TurnRecord } from '../../store/store.js';

/** What the client was sent before the live rest. */
interface Replayed {
  turns: TurnRecord[];
  runningTurnId: string | undefined;
}

/**
 * Replays the whole stored history as `session/update` notifications, then what a
 * running turn has streamed since its last stored message, then answers; from then on
 * the client gets the session's live updates. A session whose turn may run on another
 * daemon (PostgreSQL) is caught up from one snapshot of the store and its updates.
 */
export const sessionLoad: RequestHandler<'session/load'> = async (params, { client, daemon }) => {
  const mcpServers = sessionMcpSpecs('session/load', params.mcpServers, params.cwd);
  await applyRequestedDirectories('session/load', daemon, params.sessionId, params.additionalDirectories ?? undefined);
  // Set when the session's turn may run on another daemon: the store and its updates tell what it showed.
  const crossDaemon = daemon.crossDaemonUpdates?.runsHere(params.sessionId) === false ? daemon.crossDaemonUpdates : undefined;
  // The records a freshly loaded session was built from are the ones replayed: read once.
  // Read while none of its writes is in flight, so the replay and the live rest meet exactly.
  const local = crossDaemon ? undefined : await daemon.sessions.openWithMessages(params.sessionId);
  const session = local?.session ?? (await daemon.sessions.open(params.sessionId));
  const mcp = startSessionMcp(daemon, session, mcpServers);
  // Calls stored before what clients were shown was kept with them: described by today's tools.
  const describe = (name: string, args: Record<string, unknown>) => describeToolCall(daemon.tools.get(name, session.id), name, args, session.record.cwd);
  // The stored history, then what a running turn has shown since its last stored message,
  // then the live rest: one synchronous step, so nothing is missed or sent twice.
  const send = (messages: MessageRecord[], turns: TurnRecord[], title: string | null, inFlight: readonly SessionEvent[]): void => {
    replayHistory(client, session.id, messages, turns, describe, title);
    // MCP servers that failed and stand failed (not being started again by this load) show again.
    sendReplayEvents(client, session.id, session.mcpServerFailures());
    attachSession(client, session, inFlight);
  };
  const replayLocal = async (): Promise<Replayed> => {
    const { messages, turns } = local ?? (await daemon.sessions.openWithMessages(params.sessionId));
    send(messages, turns, session.record.title, session.inFlightEvents());
    return { turns, runningTurnId: session.currentTurnId };
  };
  const replayed = (crossDaemon && (await replayFromUpdates(session, crossDaemon, send))) || (await replayLocal());
  const interrupted = replayed.turns.filter((t) => t.status === 'interrupted').map((t) => t.id);
  const modes = sessionModes(session);
  const problems = tellStandingProblems(daemon, session);
  return {
    modes,
    configOptions: sessionConfigOptions(session),
    _meta: {
      agentd: {
        state: replayed.runningTurnId ? 'running' : stateForClients(session.state),
        ...(replayed.runningTurnId ? { runningTurnId: replayed.runningTurnId } : {}),
        interruptedTurns: interrupted,
        mcpServers: mcp,
        ...(problems.length > 0 ? { problems } : {}),
      },
    },
  };
};

/** The catch-up from the store and the session's updates; undefined when a turn started here meanwhile. */
async function replayFromUpdates(
  session: Session,
  crossDaemon: CrossDaemonUpdates,
  send: (messages: MessageRecord[], turns: TurnRecord[], title: string | null, inFlight: readonly SessionEvent[]) => void,
): Promise<Replayed | undefined> {
  let replayed: Replayed | undefined;
  const joined = await crossDaemon.join(session, (catchUp) => {
    send(catchUp.messages, catchUp.turns, catchUp.title, catchUp.inFlight);
    replayed = { turns: catchUp.turns, runningTurnId: catchUp.runningTurnId };
  });
  return joined ? replayed : undefined;
}
