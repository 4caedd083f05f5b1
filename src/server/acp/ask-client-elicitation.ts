import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpElicitationRequest } from '../../tools/mcp/mcp-client-ports.js';
import type { ClientConnection } from '../wire/client-connection.js';

/**
 * Puts an MCP server's form to the user through ACP `elicitation/create`: first the client
 * that sent the running prompt, then any other client following the session, among those
 * that declared `elicitation.form` at initialize. A client that fails to answer is
 * skipped; with none left it rejects, saying so, and the server gets that as its error.
 */
export function createClientElicitor(
  clients: ReadonlySet<ClientConnection>,
  promptOrigin: (sessionId: string) => string | undefined,
  rootOf: (sessionId: string) => string,
): (request: McpElicitationRequest) => Promise<ElicitResult> {
  return async (request) => {
    // A sub-agent's call: its clients are those of the session that started it.
    const root = rootOf(request.sessionId);
    const origin = promptOrigin(root);
    const candidates = [...clients]
      .filter((c) => c.initialized && !c.peer.closed && c.attached.has(root) && showsForms(c))
      .sort((a, b) => Number(b.id === origin) - Number(a.id === origin));
    for (const client of candidates) {
      if (request.signal.aborted) return { action: 'cancel' };
      try {
        const answer = await client.peer.request(
          'elicitation/create',
          {
            mode: 'form',
            sessionId: root,
            // The client never saw a sub-agent's call id.
            ...(root === request.sessionId ? { toolCallId: request.toolCallId } : {}),
            message: `MCP server "${request.server}" asks: ${request.message}`,
            requestedSchema: request.requestedSchema,
          },
          { signal: request.signal },
        );
        return { action: answer.action, ...(answer.action === 'accept' && answer.content ? { content: answer.content } : {}) };
      } catch {
        if (request.signal.aborted) return { action: 'cancel' };
        // This client cannot answer; try the next one.
      }
    }
    throw new Error('no client of this session can show a form (ACP elicitation/create with the elicitation.form capability), so the user could not be asked');
  };
}

function showsForms(client: ClientConnection): boolean {
  const elicitation = client.clientCapabilities.elicitation as { form?: unknown } | null | undefined;
  return Boolean(elicitation?.form);
}
