import path from 'node:path';
import type { McpServer, McpServerHttp, McpServerStdio } from '../../../protocol/index.js';
import type { McpServerConfig } from '../../config/config-schema.js';

/** One MCP server to connect to, whichever way it was declared (config.json or ACP `session/new`). */
export type McpServerSpec =
  | {
      transport: 'stdio';
      /** Server name; prefixes its tool names. */
      name: string;
      /** Executable to start. */
      command: string;
      args: string[];
      /** Extra environment variables, on top of the SDK's safe defaults (PATH, HOME, …). */
      env: Record<string, string>;
      /** Working directory; the daemon's when absent. */
      cwd?: string;
      /** Whether its tool annotations are believed (config `trusted: true` only). */
      trusted: boolean;
      /** Connecting plus the first tools/list must finish within this (config `startupTimeoutMs`); the daemon's default when absent. */
      startupTimeoutMs?: number;
    }
  | {
      transport: 'http';
      name: string;
      /** Streamable HTTP endpoint. */
      url: string;
      /** Sent with every request (e.g. Authorization). */
      headers: Record<string, string>;
      /** Whether its tool annotations are believed (config `trusted: true` only). */
      trusted: boolean;
      /** As for stdio: the startup limit, the daemon's default when absent. */
      startupTimeoutMs?: number;
    };

/** A server from config.json `mcpServers.<name>`. */
export function specFromConfig(name: string, config: McpServerConfig): McpServerSpec {
  const trusted = config.trusted === true;
  const limit = config.startupTimeoutMs !== undefined ? { startupTimeoutMs: config.startupTimeoutMs } : {};
  if ('url' in config) return { transport: 'http', name, url: config.url, headers: config.headers ?? {}, trusted, ...limit };
  return {
    transport: 'stdio',
    name,
    command: config.command,
    args: config.args ?? [],
    env: config.env ?? {},
    ...(config.cwd ? { cwd: config.cwd } : {}),
    trusted,
    ...limit,
  };
}

/**
 * A server from ACP `session/new` `mcpServers` (never trusted: the client's list carries
 * no trust flag, and only the user's config may make annotations count) —
 * https://agentclientprotocol.com/protocol/session-setup#mcp-servers; stdio servers run in the session's cwd. Throws for the legacy SSE transport, which
 * agentd does not offer (`mcpCapabilities.sse` is false), and for a relative stdio
 * `command`: ACP requires an absolute path, and a name looked up on the daemon's PATH
 * could start a different program than the one the client meant.
 */
export function specFromAcp(server: McpServer, cwd: string): McpServerSpec {
  // ACP's stdio variant has no `type`, so the union is told apart by `type` where present.
  const type = 'type' in server ? server.type : undefined;
  if (type === 'sse') {
    throw new Error(`MCP server "${server.name}" uses the legacy SSE transport, which agentd does not support; use {"type": "http"} (streamable HTTP) or stdio`);
  }
  if (type === 'http') {
    const http = server as McpServerHttp;
    return { transport: 'http', name: http.name, url: http.url, headers: pairs(http.headers), trusted: false };
  }
  const stdio = server as McpServerStdio;
  if (!path.isAbsolute(stdio.command)) {
    throw new Error(`MCP server "${stdio.name}": command "${stdio.command}" is not an absolute path; give the absolute path of the executable (e.g. "/usr/bin/npx"), as ACP requires`);
  }
  return { transport: 'stdio', name: stdio.name, command: stdio.command, args: stdio.args, env: pairs(stdio.env), cwd, trusted: false };
}

/** Every server of an ACP `mcpServers` list; throws naming the entry (`mcpServers[1]: …`) that cannot be used. */
export function specsFromAcp(servers: readonly McpServer[], cwd: string): McpServerSpec[] {
  return servers.map((server, index) => {
    try {
      return specFromAcp(server, cwd);
    } catch (error) {
      throw new Error(`mcpServers[${index}]: ${(error as Error).message}`);
    }
  });
}

function pairs(list: ReadonlyArray<{ name: string; value: string }>): Record<string, string> {
  return Object.fromEntries(list.map(({ name, value }) => [name, value]));
}
