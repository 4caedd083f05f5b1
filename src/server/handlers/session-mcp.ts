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
 * Starts a session's own MCP servers in the background — its trusted project's
 * `mcpServers` (an untrusted project's were stripped when its config loaded), run in the
 * session's cwd unless they name one, and the client's (ACP `mcpServers`) — and answers
 * how every server it will see stands now, for `_meta.agentd.mcpServers`. Nothing waits
 * for a server: its tools reach the model from the first request after it is running.
 */
export function startSessionMcp(daemon: DaemonContext, session: Session, specs: McpServerSpec[]): McpServerReport[] {
  // Both never reject: a server that fails is reported, not thrown.
  void daemon.mcp.setSessionServers(session.id, projectMcpSpecs(daemon, session));
  // A client server named like a project one is refused by startSession with a log line naming it.
  void daemon.mcp.startSession(session.id, specs);
  return daemon.mcp.status(session.id).map(({ name, state, tools, error }) => ({ name, state, tools, ...(error ? { error } : {}) }));
}

/** One server as `_meta.agentd.mcpServers` lists it. */
export interface McpServerReport {
  name: string;
  state: string;
  tools: string[];
  error?: string;
}

/** A trusted project's servers for a session, minus those the user's config also names. */
export function projectMcpSpecs(daemon: DaemonContext, session: Session): McpServerSpec[] {
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
  return project;
}
