import { specsFromAcp, type McpServerSpec } from '../../tools/mcp/mcp-server-spec.js';
import type { DaemonContext } from '../daemon-context.js';
import { RpcError } from '../rpc-error.js';

/** The ACP `mcpServers` of session/new, load or resume, checked before anything starts. */
export function sessionMcpSpecs(method: string, servers: Parameters<typeof specsFromAcp>[0] | undefined, cwd: string): McpServerSpec[] {
  try {
    return specsFromAcp(servers ?? [], cwd);
  } catch (error) {
    throw RpcError.invalidParams(method, [(error as Error).message]);
  }
}

/** Starts a session's own MCP servers once the configured ones are up. */
export async function startSessionMcp(daemon: DaemonContext, sessionId: string, specs: McpServerSpec[]): Promise<void> {
  await daemon.mcp.configuredStarted();
  await daemon.mcp.startSession(sessionId, specs);
}
