import type { AgentdClient } from '../../../clients/typescript/src/index.js';

/** How long a run waits for servers still starting: a little over the daemon's own startup limit. */
const WAIT_MS = 12_000;

/**
 * A one-shot run has no later prompt in which a slow MCP server's tools could appear, so
 * it waits for the servers a session's answer lists as `starting` to be running or to
 * have failed (the daemon's `mcp_server` events) before it prompts. An interactive
 * client does not need this: its next prompt sees them. Call before the session request,
 * so no event is missed.
 */
export function trackMcpServers(client: AgentdClient): { settled(answer: { _meta?: unknown }): Promise<void> } {
  const states = new Map<string, string>();
  let changed: () => void = () => undefined;
  client.onNotification('agentd/daemonEvent', ({ event }) => {
    if (event.type !== 'mcp_server') return;
    states.set(event.name, event.state);
    changed();
  });
  return {
    async settled(answer) {
      const listed = ((answer._meta as { agentd?: { mcpServers?: Array<{ name: string; state: string }> } } | undefined)?.agentd?.mcpServers ?? []);
      const starting = (): boolean => listed.some((server) => (states.get(server.name) ?? server.state) === 'starting');
      const deadline = Date.now() + WAIT_MS;
      while (starting() && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now());
          changed = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
  };
}
