import type { AgentdConfig } from '../../config/config-schema.js';
import { McpManager } from '../../tools/mcp/mcp-manager.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { plural } from '../../tools/plural.js';
import { okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

/**
 * Starts each MCP server of the config as the daemon would (same transport, environment
 * and startup limit), lists its tools, and stops it again: one line per server, running
 * with its tool count or why it failed. A failure is a warning: agentd works, without
 * that server's tools.
 */
export async function checkMcpServers(config: AgentdConfig, version: string, startupTimeoutMs?: number): Promise<DoctorCheck[]> {
  const servers = config.mcpServers ?? {};
  if (Object.keys(servers).length === 0) return [];
  const logs: string[] = [];
  const manager = new McpManager({
    registry: new ToolRegistry(),
    log: (line) => void logs.push(line),
    clientVersion: version,
    ...(startupTimeoutMs !== undefined ? { startupTimeoutMs } : {}),
  });
  try {
    await manager.startConfigured(servers);
    return manager.status().map((status) => {
      const id = `mcp:${status.name}`;
      const title = `MCP ${status.name}`;
      if (status.state === 'running') return okCheck(id, title, `running with ${plural(status.tools.length, 'tool')}`);
      const stderr = logs.filter((line) => line.startsWith(`mcp ${status.name}: `)).slice(-3).map((line) => line.slice(`mcp ${status.name}: `.length));
      const config = servers[status.name]!;
      const how = 'url' in config ? `check that ${config.url} is reachable` : `run \`${[config.command, ...(config.args ?? [])].join(' ')}\` by hand to see its error (a bare command name is looked up on PATH)`;
      return warnCheck(
        id,
        title,
        `does not start (${status.state}): ${status.error ?? 'no reason given'}${stderr.length > 0 ? `\nits last output: ${stderr.join(' | ')}` : ''}`,
        `fix mcpServers.${status.name} in your config, or ${how}`,
      );
    });
  } finally {
    await manager.stopAll();
  }
}
