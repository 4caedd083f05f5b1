import { SessionNotFoundError } from '../../session/session-errors.js';
import { ClientToolError } from '../../tools/remote/client-tools.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../wire/rpc-error.js';

/**
 * Adds tools this client executes (all or none): each schema is checked with ajv, a
 * name another client, an MCP server or a built-in uses is refused, and the tools go
 * when this connection closes.
 */
export const toolsRegister: RequestHandler<'tools/register'> = async (params, { client, daemon }) => {
  for (const [index, tool] of params.tools.entries()) {
    if (tool.sessionId === undefined) continue;
    try {
      await daemon.sessions.record(tool.sessionId);
    } catch (error) {
      throw error instanceof SessionNotFoundError ? RpcError.notFound(`tools[${index}] ("${tool.name}").sessionId: ${error.message}`) : error;
    }
  }
  try {
    return { registered: daemon.clientTools.register(client.peer, params.tools) };
  } catch (error) {
    if (error instanceof ClientToolError) throw RpcError.invalidParams('tools/register', error.issues);
    throw error;
  }
};
