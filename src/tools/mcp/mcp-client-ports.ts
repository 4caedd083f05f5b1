import type { CreateMessageRequest, CreateMessageResult, ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** One MCP `sampling/createMessage` request the user has agreed to, for a session's model. */
export interface McpSamplingRequest {
  /** The session whose tool call the request arrived during: its model answers. */
  sessionId: string;
  /** The server asking. */
  server: string;
  params: CreateMessageRequest['params'];
  /** Fires when the tool call that caused it is cancelled or times out. */
  signal: AbortSignal;
}

/** One MCP `elicitation/create` (form mode) to put to the user of a session. */
export interface McpElicitationRequest {
  sessionId: string;
  /** The tool call during which the server asked. */
  toolCallId: string;
  server: string;
  message: string;
  requestedSchema: ElicitRequestFormParams['requestedSchema'];
  signal: AbortSignal;
}

/**
 * What the MCP client needs from the layers above to serve a server's requests to it
 * (https://modelcontextprotocol.io/specification/2025-06-18/client): supplied by the
 * server layer, so src/tools never reaches up into sessions.
 */
export interface McpClientPorts {
  /**
   * A session's directories (absolute) for `roots/list`: its cwd and additional
   * directories, less any inside a path the sandbox hides from bash.
   */
  roots(sessionId: string): Promise<string[]>;
  /** Answers a sampling request with the session's model; the user has already agreed. */
  sample(request: McpSamplingRequest): Promise<CreateMessageResult>;
  /** Shows the user a form; rejects, saying why, when no client of the session can show one. */
  elicit(request: McpElicitationRequest): Promise<ElicitResult>;
}

/** Ports for a manager with no sessions (doctor, tests): no roots, sampling refused. */
export const noClientPorts: McpClientPorts = {
  roots: () => Promise.resolve([]),
  sample: () => Promise.reject(new Error('sampling is not available here')),
  elicit: () => Promise.reject(new Error('no user can be asked here')),
};
