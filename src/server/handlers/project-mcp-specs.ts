import type { McpServerConfig } from '../../config/config-schema.js';
import { projectMcpServers, type ProjectSettings } from '../../config/project-settings.js';
import type { Session } from '../../session/session.js';
import { specFromConfig, type McpServerSpec } from '../../tools/mcp/mcp-server-spec.js';
import type { DaemonContext } from '../daemon-context.js';

/**
 * Makes a session's project servers match `settings` (when it goes live, and after a
 * reload), in the background: a server that fails is reported, never thrown.
 */
export function applyProjectMcpServers(daemon: DaemonContext, session: Session, settings: ProjectSettings): void {
  void daemon.mcp.setSessionServers(session.id, projectMcpSpecs(settings, session.record.cwd, daemon.config.mcpServers ?? {}, daemon.log));
}

/**
 * A trusted project's servers for one of its sessions (an untrusted project's were
 * stripped when its config loaded), run in the session's cwd unless they name one, minus
 * those the user's config also names: that server already serves every session, and two
 * would clash on tool names.
 */
function projectMcpSpecs(
  settings: ProjectSettings,
  sessionCwd: string,
  userServers: Record<string, McpServerConfig>,
  log: (line: string) => void,
): McpServerSpec[] {
  const project: McpServerSpec[] = [];
  for (const [name, config] of Object.entries(projectMcpServers(settings))) {
    if (name in userServers) {
      log(`MCP server "${name}" of ${settings.root}/.agentd/config.json is not started: your config.json defines a server of that name; rename one of them`);
      continue;
    }
    const spec = specFromConfig(name, config);
    project.push(spec.transport === 'stdio' && spec.cwd === undefined ? { ...spec, cwd: sessionCwd } : spec);
  }
  return project;
}
