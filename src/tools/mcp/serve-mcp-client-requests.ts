import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../tool.js';
import { attributeServerRequest } from './attribute-server-request.js';
import type { McpClientPorts } from './mcp-client-ports.js';
import { mcpToolName } from './mcp-tool-name.js';

/** The client capabilities agentd declares to every MCP server (elicitation in form mode only). */
export const MCP_CLIENT_CAPABILITIES = { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } };

export interface McpClientRequestContext {
  server: string;
  /** Set for a session's own server. */
  sessionId: string | undefined;
  ports: McpClientPorts;
  /** This server's tool calls running now, latest last. */
  inFlight(): readonly ToolContext[];
}

/**
 * Serves what a server may ask of its client, each request for the one session that
 * caused it (see attributeServerRequest; a request that cannot be attributed is refused).
 * `roots/list`: the directories of the session the server belongs to, or for a server of
 * the user's config, of the session whose call it is running (none otherwise).
 * `sampling/createMessage`: asked of that session's user through that call's permission
 * gate, in that session's mode, like any other action, then answered by that session's
 * model at that session's cost. `elicitation/create` (form mode): shown to that session's
 * user through the ACP client.
 */
export function serveMcpClientRequests(client: Client, context: McpClientRequestContext): void {
  /** The call a request belongs to; throws the MCP error saying why none can be named. */
  const callFor = (what: string): ToolContext => {
    const attribution = attributeServerRequest(context.server, context.inFlight(), what);
    if ('refusal' in attribution) throw new McpError(ErrorCode.InvalidRequest, attribution.refusal);
    return attribution.call;
  };
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    const attribution = context.sessionId === undefined ? attributeServerRequest(context.server, context.inFlight(), 'roots/list') : undefined;
    const sessionId = context.sessionId ?? (attribution && 'call' in attribution ? attribution.call.sessionId : undefined);
    const dirs = sessionId ? await context.ports.roots(sessionId) : [];
    return { roots: dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })) };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const call = callFor('sampling/createMessage');
    const answer = await call.permission.check({
      tool: mcpToolName(context.server, 'sampling/createMessage'),
      access: 'execute',
      args: { messages: request.params.messages, ...(request.params.systemPrompt ? { systemPrompt: request.params.systemPrompt } : {}), maxTokens: request.params.maxTokens },
      reason: `MCP server "${context.server}" asks to use your model (sampling, up to ${request.params.maxTokens} tokens)`,
    });
    if (answer !== 'allow') throw new McpError(ErrorCode.InvalidRequest, 'The user refused this sampling request.');
    const signal = AbortSignal.any([call.signal, extra.signal]);
    try {
      return await context.ports.sample({ sessionId: call.sessionId, server: context.server, params: request.params, signal });
    } catch (error) {
      throw new McpError(ErrorCode.InvalidRequest, (error as Error).message);
    }
  });
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const call = callFor('elicitation/create');
    const params = request.params;
    if (params.mode === 'url') throw new McpError(ErrorCode.InvalidParams, 'agentd offers form elicitation only, not url');
    try {
      return await context.ports.elicit({
        sessionId: call.sessionId,
        toolCallId: call.toolCallId,
        server: context.server,
        message: params.message,
        requestedSchema: params.requestedSchema,
        signal: AbortSignal.any([call.signal, extra.signal]),
      });
    } catch (error) {
      throw new McpError(ErrorCode.InvalidRequest, (error as Error).message);
    }
  });
}
