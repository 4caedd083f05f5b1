import { toolJsonSchema } from '../../tools/tool-json-schema.js';
import type { RequestHandler } from '../handler-table.js';

/** Every tool a session (or, without one, every session) can call, sorted by name, with who executes it. */
export const toolsList: RequestHandler<'tools/list'> = async (params, { daemon }) => {
  if (params.sessionId !== undefined) await daemon.sessions.record(params.sessionId);
  const tools = daemon.tools.list(params.sessionId).map(({ tool, origin }) => {
    const server = origin === 'mcp' ? daemon.mcp.serverOf(tool) : undefined;
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: toolJsonSchema(tool),
      kind: tool.kind,
      access: tool.access,
      origin,
      ...(server !== undefined ? { server } : {}),
    };
  });
  return { tools: tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
};
