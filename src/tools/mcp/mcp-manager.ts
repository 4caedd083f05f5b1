import type { McpServerConfig } from '../../config/config-schema.js';
import type { Tool } from '../tool.js';
import type { ToolRegistry } from '../tool-registry.js';
import type { McpServerConnection, McpServerState } from './mcp-server-connection.js';
import { specFromConfig, type McpServerSpec } from './mcp-server-spec.js';
import { DEFAULT_BACKOFF, type Backoff } from './restart-delay.js';

export interface McpManagerOptions {
  registry: ToolRegistry;
  log(line: string): void;
  /** agentd's version, sent as the MCP client version. */
  clientVersion: string;
  /** Restart backoff after a crash; 1 s doubling to 30 s when absent. */
  backoff?: Backoff;
  /** Connect plus first tools/list; 10 s when absent. */
  startupTimeoutMs?: number;
  /** One tools/call; 120 s when absent (the loop's own per-call limit is the same). */
  callTimeoutMs?: number;
}

/** One server as `status()` reports it. */
export interface McpServerStatus {
  name: string;
  /** Set for a session's own server. */
  sessionId?: string;
  state: McpServerState;
  /** Tool names as the model sees them. */
  tools: string[];
  /** Why it last failed to start. */
  error?: string;
}

/**
 * Every MCP server of the daemon: the daemon-wide ones from config.json `mcpServers`,
 * whose tools every session sees, and each session's own from ACP `session/new`
 * (`mcpServers`), whose tools only that session sees and which stop when it closes.
 */
export class McpManager {
  private readonly connections = new Map<string, McpServerConnection>();
  private configured: Promise<void> = Promise.resolve();

  constructor(private readonly options: McpManagerOptions) {}

  /** Starts the config servers; resolves when each is running or has failed (never rejects). */
  startConfigured(servers: Record<string, McpServerConfig> | undefined): Promise<void> {
    this.configured = this.startAll(Object.entries(servers ?? {}).map(([name, config]) => specFromConfig(name, config)), undefined);
    return this.configured;
  }

  /**
   * Resolves once the config servers' first start is over (running or failed), so a
   * session created while the daemon is still starting sees their tools.
   */
  configuredStarted(): Promise<void> {
    return this.configured;
  }

  /**
   * Starts a session's servers; a server of the same name already running for the
   * session with the same settings is kept, one with other settings is replaced.
   * Resolves when each is running or has failed.
   */
  async startSession(sessionId: string, servers: McpServerSpec[]): Promise<void> {
    await this.startAll(servers, sessionId);
  }

  /** Stops a session's servers (the session closed or was deleted). */
  async stopSession(sessionId: string): Promise<void> {
    const own = [...this.connections].filter(([key]) => key.startsWith(`${sessionId}\u0000`));
    for (const [key] of own) this.connections.delete(key);
    await Promise.all(own.map(([, connection]) => connection.stop()));
  }

  /** Stops every server (daemon shutdown). */
  async stopAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((connection) => connection.stop()));
  }

  /** The MCP server a tool comes from, or undefined for other tools. */
  serverOf(tool: Tool): string | undefined {
    for (const connection of this.connections.values()) {
      if (connection.registeredTools.includes(tool)) return connection.name;
    }
    return undefined;
  }

  /** Every server with its state and tools. */
  status(): McpServerStatus[] {
    return [...this.connections].map(([key, connection]) => {
      const sessionId = key.slice(0, key.indexOf('\u0000'));
      return {
        name: connection.name,
        ...(sessionId ? { sessionId } : {}),
        state: connection.state,
        tools: connection.registeredTools.map((t) => t.name),
        ...(connection.lastError ? { error: connection.lastError } : {}),
      };
    });
  }

  private async startAll(specs: McpServerSpec[], sessionId: string | undefined): Promise<void> {
    if (specs.length === 0) return;
    // The MCP SDK is loaded only when a server is configured: most daemons never need it.
    const { McpServerConnection } = await import('./mcp-server-connection.js');
    const started: Array<Promise<void>> = [];
    const names = new Set<string>();
    for (const spec of specs) {
      if (names.has(spec.name)) {
        this.options.log(`MCP server name "${spec.name}" is given twice; only the first is started (give each server its own name)`);
        continue;
      }
      names.add(spec.name);
      const key = `${sessionId ?? ''}\u0000${spec.name}`;
      const existing = this.connections.get(key);
      if (existing && existing.state !== 'failed' && JSON.stringify(existing.spec) === JSON.stringify(spec)) continue;
      const connection = new McpServerConnection(spec, {
        registry: this.options.registry,
        ...(sessionId ? { sessionId } : {}),
        log: this.options.log,
        clientVersion: this.options.clientVersion,
        backoff: this.options.backoff ?? DEFAULT_BACKOFF,
        startupTimeoutMs: this.options.startupTimeoutMs ?? 10_000,
        callTimeoutMs: this.options.callTimeoutMs ?? 120_000,
      });
      this.connections.set(key, connection);
      // Stop the one it replaces first, so the tool names are free again.
      started.push((existing ? existing.stop() : Promise.resolve()).then(() => connection.start()));
    }
    await Promise.all(started);
  }
}
