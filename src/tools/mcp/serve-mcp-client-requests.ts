import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../tool.js';
import type { McpClientPorts } from './mcp-client-ports.js';
import { mcpToolName } from './mcp-tool-name.js';

/** The client capabilities agentd declares to every MCP server (elicitation in form mode only). */
export const MCP_CLIENT_CAPABILITIES = { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } };

export interface McpClientRequestContext {
  server: string;
  /** Set for a session's own server. */
  sessionId: string | undefined;
  ports: McpClientPorts;
  /** The tool call of this server running now, if any (the latest when several run). */
  activeCall(): ToolContext | undefined;
}

/**
 * Serves what a server may ask of its client. `roots/list`: the directories of the
 * session the server belongs to, or for a server of the user's config, of the session
 * whose call it is running (none between calls). `sampling/createMessage`: only during one
 * of its tool calls, asked of the user through that call's permission gate like any other
 * action, then answered by that session's model. `elicitation/create` (form mode): only
 * during one of its tool calls, shown to that session's user through the ACP client.
 */
export function serveMcpClientRequests(client: Client, context: McpClientRequestContext): void {
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    const sessionId = context.sessionId ?? context.activeCall()?.sessionId;
    const dirs = sessionId ? await context.ports.roots(sessionId) : [];
    return { roots: dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })) };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const call = context.activeCall();
    if (!call) {
      throw new McpError(ErrorCode.InvalidRequest, 'agentd serves sampling only while one of this server\'s tools runs for a session');
    }
    const answer = await call.permission.check({
      tool: mcpToolName(context.server, 'sampling/createMessage'),
      access: 'execute',
      args: { messages: request.params.messages, ...(request.params.systemPrompt ? { systemPrompt: request.params.systemPrompt } : {}), maxTokens: request.params.maxTokens },
      reason: `MCP server "${context.server}" asks to use your model (sampling, up to ${request.params.maxTokens} tokens)`,
    });
    if (answer !== 'allow') throw new McpError(ErrorCode.InvalidRequest, 'The user refused this sampling request.');
    const signal = AbortSignal.any([call.signal, extra.signal]);
    return context.ports.sample({ sessionId: call.sessionId, server: context.server, params: request.params, signal });
  });
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const call = context.activeCall();
    if (!call) throw new McpError(ErrorCode.InvalidRequest, 'agentd asks the user only while one of this server\'s tools runs for a session');
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
