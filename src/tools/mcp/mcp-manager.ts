import type { McpServerConfig } from '../../config/config-schema.js';
import type { Tool } from '../tool.js';
import type { ToolRegistry } from '../tool-registry.js';
import { noClientPorts, type McpClientPorts } from './mcp-client-ports.js';
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
  /** Connect plus first tools/list, for a server whose spec sets no limit; DEFAULT_STARTUP_TIMEOUT_MS when absent. */
  startupTimeoutMs?: number;
  /** One tools/call; 120 s when absent (the loop's own per-call limit is the same). */
  callTimeoutMs?: number;
  /** Roots and sampling for the servers; none (roots empty, sampling refused) when absent. */
  ports?: McpClientPorts;
}

/** One server as `status()` reports it. */
export interface McpServerStatus {
  name: string;
  /** Set for a session's own server. */
  sessionId?: string;
  state: McpServerState;
  /** Tool names as the model sees them. */
  tools: string[];
  /** Why it last failed to start, or why it is restarting. */
  error?: string;
  /** How long it may take to start (connect and list its tools), in ms. */
  startupTimeoutMs: number;
}

/** How long a server may take to start when neither its config nor the manager says. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;

/** Where a server was declared: the user's config.json, a trusted project's config, or the ACP client. */
type Origin = 'config' | 'project' | 'client';

interface Entry {
  connection: McpServerConnection;
  origin: Origin;
}

/**
 * Every MCP server of the daemon: the daemon-wide ones from config.json `mcpServers`,
 * whose tools every session sees, and each session's own (a trusted project's config and
 * the ACP client's `session/new` list), whose tools only that session sees and which stop
 * when it closes. Starting them holds nothing up (a turn waits for them itself, see
 * waitForMcpServers): their tools enter the registry when they are ready, and every state
 * change goes to the `onStateChange` listeners.
 */
export class McpManager {
  /** Keyed `<sessionId or ''>\0<name>`. */
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(status: McpServerStatus) => void>();
  /**
   * Asked for while the SDK loads (keyed as `entries`): reported as starting, over a
   * failed or changed entry they are about to replace.
   */
  private readonly pending = new Map<string, McpServerStatus>();
  /** Sessions stopped since their servers were asked for, so a start still loading the SDK is dropped. */
  private readonly stoppedSessions = new Set<string>();
  private closed = false;
  /** See McpManagerOptions.startupTimeoutMs; follows config reloads. */
  private defaultStartupTimeoutMs: number | undefined;

  constructor(private readonly options: McpManagerOptions) {
    this.defaultStartupTimeoutMs = options.startupTimeoutMs;
  }

  /** The startup limit of servers whose spec sets none, from their next start on (config `tools.mcpStartupTimeoutMs`). */
  setDefaultStartupTimeout(ms: number | undefined): void {
    this.defaultStartupTimeoutMs = ms;
  }

  /** Calls `listener` on every state change of every server (and a new tool list); returns the unsubscribe. */
  onStateChange(listener: (status: McpServerStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the config servers; resolves when each is running or has failed (never rejects). */
  startConfigured(servers: Record<string, McpServerConfig> | undefined): Promise<void> {
    return this.setConfigured(servers);
  }

  /**
   * Makes the config servers match `servers` (config hot reload): starts new ones, stops
   * removed ones, restarts changed or failed ones, keeps the rest running untouched.
   * Resolves when the started ones are running or have failed.
   */
  setConfigured(servers: Record<string, McpServerConfig> | undefined): Promise<void> {
    return this.reconcile(undefined, 'config', specsOf(servers));
  }

  /**
   * Makes a session's servers from its trusted project's `.agentd/config.json` match
   * `specs`, as setConfigured does for the user's; the client's servers are left alone.
   */
  setSessionServers(sessionId: string, specs: McpServerSpec[]): Promise<void> {
    this.stoppedSessions.delete(sessionId);
    return this.reconcile(sessionId, 'project', specs);
  }

  /**
   * Starts a session's servers from its ACP client; a server of the same name already
   * running for the session with the same settings is kept, one with other settings is
   * replaced. Resolves when each is running or has failed.
   */
  startSession(sessionId: string, servers: McpServerSpec[]): Promise<void> {
    this.stoppedSessions.delete(sessionId);
    return this.start(sessionId, 'client', servers);
  }

  /** Stops a session's servers (the session closed or was deleted). */
  async stopSession(sessionId: string): Promise<void> {
    this.stoppedSessions.add(sessionId);
    await this.stopWhere((key) => key.startsWith(`${sessionId}\u0000`));
  }

  /** Stops every server for good, those still starting included (daemon shutdown); nothing starts after. */
  async stopAll(): Promise<void> {
    this.closed = true;
    await this.stopWhere(() => true);
  }

  /** The MCP server a tool comes from, or undefined for other tools. */
  serverOf(tool: Tool): string | undefined {
    for (const { connection } of this.entries.values()) {
      if (connection.registeredTools.includes(tool)) return connection.name;
    }
    return undefined;
  }

  /** Every server with its state and tools; with a session id, the config servers and that session's own. */
  status(sessionId?: string): McpServerStatus[] {
    const current = [...this.entries].map(([key, { connection }]) => this.pending.get(key) ?? statusOf(connection));
    const waiting = [...this.pending].filter(([key]) => !this.entries.has(key)).map(([, status]) => status);
    const all = [...current, ...waiting];
    return sessionId === undefined ? all : all.filter((s) => s.sessionId === undefined || s.sessionId === sessionId);
  }

  private async reconcile(sessionId: string | undefined, origin: Origin, specs: McpServerSpec[]): Promise<void> {
    const wanted = new Set(specs.map((spec) => spec.name));
    const scope = `${sessionId ?? ''}\u0000`;
    const removed = this.stopWhere((key, entry) => key.startsWith(scope) && entry.origin === origin && !wanted.has(key.slice(scope.length)));
    await Promise.all([removed, this.start(sessionId, origin, specs)]);
  }

  private async stopWhere(matches: (key: string, entry: Entry) => boolean): Promise<void> {
    const stopping = [...this.entries].filter(([key, entry]) => matches(key, entry));
    for (const [key] of stopping) this.entries.delete(key);
    await Promise.all(stopping.map(([, { connection }]) => connection.stop()));
  }

  private async start(sessionId: string | undefined, origin: Origin, specs: McpServerSpec[]): Promise<void> {
    if (specs.length === 0 || this.closed) return;
    const waiting: string[] = [];
    for (const spec of specs) {
      const key = `${sessionId ?? ''}\u0000${spec.name}`;
      if (this.pending.has(key) || !this.replaces(this.entries.get(key), origin, spec)) continue;
      waiting.push(key);
      const startupTimeoutMs = this.startupTimeoutOf(spec);
      this.pending.set(key, { name: spec.name, ...(sessionId ? { sessionId } : {}), state: 'starting', tools: [], startupTimeoutMs });
    }
    // The MCP SDK is loaded only when a server is configured: most daemons never need it.
    const { McpServerConnection } = await import('./mcp-server-connection.js').finally(() => {
      for (const key of waiting) this.pending.delete(key);
    });
    if (this.closed || (sessionId !== undefined && this.stoppedSessions.has(sessionId))) return;
    const started: Array<Promise<void>> = [];
    const names = new Set<string>();
    for (const spec of specs) {
      if (names.has(spec.name)) {
        this.options.log(`MCP server name "${spec.name}" is given twice; only the first is started (give each server its own name)`);
        continue;
      }
      names.add(spec.name);
      const key = `${sessionId ?? ''}\u0000${spec.name}`;
      const existing = this.entries.get(key);
      if (existing && existing.origin !== origin) {
        this.options.log(`MCP server "${spec.name}" is not started: a server of that name already serves ${sessionId ? `session ${sessionId}` : 'every session'}; rename one of them`);
        continue;
      }
      if (!this.replaces(existing, origin, spec)) continue;
      const connection: McpServerConnection = new McpServerConnection(spec, {
        registry: this.options.registry,
        ...(sessionId ? { sessionId } : {}),
        log: this.options.log,
        clientVersion: this.options.clientVersion,
        backoff: this.options.backoff ?? DEFAULT_BACKOFF,
        startupTimeoutMs: this.startupTimeoutOf(spec),
        callTimeoutMs: this.options.callTimeoutMs ?? 120_000,
        ports: this.options.ports ?? noClientPorts,
        onChange: (changed) => this.tell(changed),
      });
      this.entries.set(key, { connection, origin });
      // Stop the one it replaces first, so the tool names are free again.
      started.push((existing ? existing.connection.stop() : Promise.resolve()).then(() => connection.start()));
    }
    await Promise.all(started);
  }

  /** Whether `spec` starts a server where `existing` is: none there, it failed, or it runs with other settings. */
  private replaces(existing: Entry | undefined, origin: Origin, spec: McpServerSpec): boolean {
    if (!existing) return true;
    if (existing.origin !== origin) return false;
    return existing.connection.state === 'failed' || JSON.stringify(existing.connection.spec) !== JSON.stringify(spec);
  }

  private startupTimeoutOf(spec: McpServerSpec): number {
    return spec.startupTimeoutMs ?? this.defaultStartupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  }

  private tell(connection: McpServerConnection): void {
    const status = statusOf(connection);
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch (error) {
        this.options.log(`MCP server ${connection.name}: a state listener failed: ${(error as Error).message}`);
      }
    }
  }
}

function specsOf(servers: Record<string, McpServerConfig> | undefined): McpServerSpec[] {
  return Object.entries(servers ?? {}).map(([name, config]) => specFromConfig(name, config));
}

function statusOf(connection: McpServerConnection): McpServerStatus {
  const sessionId = connection.sessionId;
  return {
    name: connection.name,
    ...(sessionId ? { sessionId } : {}),
    state: connection.state,
    tools: connection.registeredTools.map((t) => t.name),
    ...(connection.lastError && connection.state !== 'running' ? { error: connection.lastError } : {}),
    startupTimeoutMs: connection.startupTimeoutMs,
  };
}
