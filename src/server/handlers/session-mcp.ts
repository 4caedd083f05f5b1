import type { McpServerReport } from '../../../protocol/index.js';
import type { Session } from '../../session/session.js';
import { specsFromAcp, type McpServerSpec } from '../../tools/mcp/mcp-server-spec.js';
import type { DaemonContext } from '../daemon-context.js';
import { applyProjectMcpServers } from './project-mcp-specs.js';
import { RpcError } from '../wire/rpc-error.js';

/** The ACP `mcpServers` of session/new, load or resume, checked before anything starts. */
export function sessionMcpSpecs(method: string, servers: Parameters<typeof specsFromAcp>[0] | undefined, cwd: string): McpServerSpec[] {
  try {
    return specsFromAcp(servers ?? [], cwd);
  } catch (error) {
    throw RpcError.invalidParams(method, [(error as Error).message]);
  }
}

/**
 * Starts a session's own MCP servers in the background — its trusted project's
 * `mcpServers` (an untrusted project's were stripped when its config loaded), run in the
 * session's cwd unless they name one, and the client's (ACP `mcpServers`) — and answers
 * how every server it will see stands now, for `_meta.agentd.mcpServers`. Nothing waits
 * for a server: its tools reach the model from the first request after it is running.
 */
export function startSessionMcp(daemon: DaemonContext, session: Session, specs: McpServerSpec[]): McpServerReport[] {
  // Both never reject: a server that fails is reported, not thrown.
  applyProjectMcpServers(daemon, session, session.project.settings);
  // A client server named like a project one is refused by startSession with a log line naming it.
  void daemon.mcp.startSession(session.id, specs);
  return daemon.mcp.status(session.id).map(({ name, state, tools, error }) => ({ name, state, tools, ...(error ? { error } : {}) }));
}
