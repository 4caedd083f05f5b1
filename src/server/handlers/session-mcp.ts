import { projectMcpServers } from '../../config/project-settings.js';
import type { Session } from '../../session/session.js';
import { specFromConfig, specsFromAcp, type McpServerSpec } from '../../tools/mcp/mcp-server-spec.js';
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

/**
 * Starts a session's own MCP servers once the configured ones are up: its trusted
 * project's `mcpServers` (an untrusted project's were stripped when its config loaded),
 * run in the session's cwd unless they name one, then the client's (ACP `mcpServers`).
 */
export async function startSessionMcp(daemon: DaemonContext, session: Session, specs: McpServerSpec[]): Promise<void> {
  await daemon.mcp.configuredStarted();
  const userServers = daemon.config.mcpServers ?? {};
  const project: McpServerSpec[] = [];
  for (const [name, config] of Object.entries(projectMcpServers(session.services.settings))) {
    // The user's server of that name already serves every session; two would clash on tool names.
    if (name in userServers) {
      daemon.log(`MCP server "${name}" of ${session.services.settings.root}/.agentd/config.json is not started: your config.json defines a server of that name; rename one of them`);
      continue;
    }
    const spec = specFromConfig(name, config);
    project.push(spec.transport === 'stdio' && spec.cwd === undefined ? { ...spec, cwd: session.record.cwd } : spec);
  }
  // A client server named like a project one is refused by startSession with a log line naming it.
  await daemon.mcp.startSession(session.id, [...project, ...specs]);
}
