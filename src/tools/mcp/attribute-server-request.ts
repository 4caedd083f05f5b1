import type { ToolContext } from '../tool.js';

/** The session a server's request belongs to (through one of its calls), or why none can be named. */
export type ServerRequestAttribution = { call: ToolContext } | { refusal: string };

/**
 * Names the session an MCP server's own request (sampling, elicitation, roots) belongs
 * to: the one session with a call to that server in flight when the request arrives (its
 * latest such call). MCP gives a client no link from a server's request to the
 * `tools/call` it was sent during — the SDK's `relatedRequestId` only routes the server's
 * side of a Streamable HTTP connection and never reaches the client. A shared server
 * therefore serves one session's calls at a time (OneSessionAtATime); with none in flight
 * (or, should that ever fail, two sessions' calls) the request cannot be attributed, and
 * is refused rather than guessed: a guess could let one session's mode or user approve another's.
 */
export function attributeServerRequest(server: string, inFlight: readonly ToolContext[], what: string): ServerRequestAttribution {
  const sessions = new Set(inFlight.map((call) => call.sessionId));
  const only = inFlight.at(-1);
  if (sessions.size === 1 && only) return { call: only };
  const why =
    sessions.size === 0
      ? `no tool call to MCP server "${server}" is running`
      : `tool calls of ${sessions.size} sessions to MCP server "${server}" are running at once`;
  return {
    refusal:
      `cannot tell which session this request belongs to; ${why}, so agentd refuses ${what} rather than guess. ` +
      `It serves ${what} only during a tool call of this server while no other session's call to it runs ` +
      '(give each session its own server through session/new to make that certain)',
  };
}
