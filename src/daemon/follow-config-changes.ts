import type { BuiltDaemonContext } from './create-daemon-context.js';
import { applyProjectMcpServers } from '../server/handlers/project-mcp-specs.js';

/**
 * What a configuration change starts and stops beyond the sessions' own services: the
 * user's MCP servers follow its `mcpServers` (and their default startup limit its
 * `tools.mcpStartupTimeoutMs`) and the config schedules its `schedules`
 * (when this daemon runs schedules), and each live session's project servers its
 * trusted project's (trust itself may have changed with the user's file).
 */
export function followConfigChanges(daemon: BuiltDaemonContext, options: { schedules: boolean }): void {
  daemon.reloader.onUserConfig((config) => {
    daemon.mcp.setDefaultStartupTimeout(config.tools?.mcpStartupTimeoutMs);
    void daemon.mcp.setConfigured(config.mcpServers);
    if (options.schedules) daemon.scheduler.setConfigSchedules(config.schedules ?? []);
  });
  daemon.reloader.onSessionsConfig((affected) => {
    for (const { session, settings } of affected) {
      applyProjectMcpServers(daemon, session, settings);
    }
  });
}
