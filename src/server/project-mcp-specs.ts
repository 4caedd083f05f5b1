import type { McpServerConfig } from '../config/config-schema.js';
import { projectMcpServers, type ProjectSettings } from '../config/project-settings.js';
import { specFromConfig, type McpServerSpec } from '../tools/mcp/mcp-server-spec.js';

/**
 * A trusted project's servers for one of its sessions (an untrusted project's were
 * stripped when its config loaded), run in the session's cwd unless they name one, minus
 * those the user's config also names: that server already serves every session, and two
 * would clash on tool names.
 */
export function projectMcpSpecs(
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
