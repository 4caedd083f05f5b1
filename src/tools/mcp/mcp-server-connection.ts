import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolContext, ToolResult } from '../tool.js';
import type { ToolRegistry } from '../tool-registry.js';
import { createMcpTool } from './create-mcp-tool.js';
import type { McpClientPorts } from './mcp-client-ports.js';
import { mcpResultToToolResult } from './mcp-result-to-tool-result.js';
import type { McpServerSpec } from './mcp-server-spec.js';
import { openMcpTransport } from './open-mcp-transport.js';
import { OneSessionAtATime } from './one-session-at-a-time.js';
import { restartDelay, type Backoff } from './restart-delay.js';
import { STARTUP_LIMIT_HINT } from './startup-limit-hint.js';
import { MCP_CLIENT_CAPABILITIES, serveMcpClientRequests } from './serve-mcp-client-requests.js';

/** Where a server is in its life. */
export type McpServerState = 'starting' | 'running' | 'restarting' | 'failed' | 'stopped';

export interface McpConnectionOptions {
  registry: ToolRegistry;
  /** Set for a session's own server: its tools are visible to that session only. */
  sessionId?: string;
  log(line: string): void;
  /** agentd's version, sent as the MCP client version. */
  clientVersion: string;
  backoff: Backoff;
  /** Connecting plus the first tools/list must finish within this. */
  startupTimeoutMs: number;
  /** One tools/call must finish within this. */
  callTimeoutMs: number;
  /** What roots and sampling are served from. */
  ports: McpClientPorts;
  /** Told after every change of state (and of the tools while running). */
  onChange(connection: McpServerConnection): void;
}

/**
 * One MCP server through the SDK client: connects, lists its tools into the registry
 * (again on `notifications/tools/list_changed`), runs their calls, and restarts the
 * server with exponential backoff when it exits on its own. While it restarts, its tools
 * stay listed and their calls fail with a message telling the model to try again.
 */
export class McpServerConnection {
  private current: McpServerState = 'starting';
  /** Why the server last failed to start, for status and error messages. */
  lastError: string | undefined;
  /** Its calls running now, latest last: a request of the server belongs to their session when there is one. */
  private readonly activeCalls: ToolContext[] = [];
  private readonly sessionTurns = new OneSessionAtATime();
  /** The session of the last call: a config server's roots are that session's. */
  private lastCallSession: string | undefined;
  private client: Client | undefined;
  private tools: Tool[] = [];
  private crashes = 0;
  private runningSince = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  /** The close of a client given up at the startup limit, which stop() still waits for. */
  private abandoned: Promise<void> | undefined;

  constructor(
    readonly spec: McpServerSpec,
    private readonly options: McpConnectionOptions,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  /** The session it serves alone; undefined for a server of the user's config. */
  get sessionId(): string | undefined {
    return this.options.sessionId;
  }

  get state(): McpServerState {
    return this.current;
  }

  private set state(state: McpServerState) {
    if (state === this.current) return;
    this.current = state;
    this.options.onChange(this);
  }

  /** The tools it currently offers, as registered. */
  get registeredTools(): readonly Tool[] {
    return this.tools;
  }

  /** Connects and registers the tools; resolves once running or failed (never rejects). */
  async start(): Promise<void> {
    this.options.onChange(this);
    try {
      await this.connectWithinLimit();
      if (this.state === 'stopped') return;
      this.state = 'running';
      this.runningSince = Date.now();
      this.options.log(`MCP server ${this.name} started with ${this.tools.length} tool(s)`);
    } catch (error) {
      if (this.state === 'stopped') return;
      this.lastError = (error as Error).message;
      this.state = 'failed';
      this.options.log(`MCP server ${this.name} failed to start: ${this.lastError}`);
    }
  }

  /** Stops the server for good and removes its tools. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    clearTimeout(this.restartTimer);
    this.unregisterTools();
    this.state = 'stopped';
    const client = this.client;
    this.client = undefined;
    await Promise.all([client?.close().catch(() => undefined), this.abandoned]);
  }

  /** How long connecting plus the first tools/list may take. */
  get startupTimeoutMs(): number {
    return this.options.startupTimeoutMs;
  }

  /**
   * connect() bounded as a whole: the SDK's request timeouts bound initialize and each
   * tools/list page alone, so a server slow at both (or at spawning) could take longer
   * than the limit a prompt waits for it. On the limit the half-open client is closed.
   */
  private async connectWithinLimit(): Promise<void> {
    const limit = this.options.startupTimeoutMs;
    const connecting = this.connect();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`did not start within ${limit} ms (connecting and listing its tools); if it needs longer, raise ${STARTUP_LIMIT_HINT}`));
      }, limit);
    });
    try {
      await Promise.race([connecting, late]);
    } catch (error) {
      // Whatever connect() does after the limit is dropped (loadTools checks the client).
      connecting.catch(() => undefined);
      const client = this.client;
      this.client = undefined;
      // Not awaited: a server hung in initialize takes the kill's grace period to go,
      // and the failure is news now (a prompt may be waiting for it).
      this.abandoned = client?.close().catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({ name: 'agentd', version: this.options.clientVersion }, { capabilities: MCP_CLIENT_CAPABILITIES });
    this.client = client;
    serveMcpClientRequests(client, {
      server: this.name,
      sessionId: this.options.sessionId,
      ports: this.options.ports,
      inFlight: () => this.activeCalls,
    });
    client.onclose = () => {
      if (client === this.client && this.state === 'running') this.onCrash();
    };
    client.onerror = (error) => this.options.log(`MCP server ${this.name}: ${error.message}`);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.refresh(client).catch((error: Error) => this.options.log(`MCP server ${this.name}: refreshing its tools failed: ${error.message}`));
    });
    try {
      await client.connect(openMcpTransport(this.spec, this.options.log), { timeout: this.options.startupTimeoutMs });
      await this.refresh(client);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** Lists every page of tools and swaps them into the registry; one refresh at a time. */
  private refresh(client: Client): Promise<void> {
    const next = this.refreshing.then(() => this.loadTools(client));
    this.refreshing = next.catch(() => undefined);
    return next;
  }

  private async loadTools(client: Client): Promise<void> {
    const infos: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.options.startupTimeoutMs });
      infos.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    if (client !== this.client || this.state === 'stopped') return;
    this.unregisterTools();
    for (const info of infos) {
      const tool = createMcpTool(this.name, info, (name, args, ctx) => this.call(name, args, ctx), this.spec.trusted);
      try {
        this.options.registry.register(tool, { origin: 'mcp', ...(this.options.sessionId ? { sessionId: this.options.sessionId } : {}) });
        this.tools.push(tool);
      } catch (error) {
        this.options.log(`MCP server ${this.name}: tool "${info.name}" is not offered: ${(error as Error).message}`);
      }
    }
    // A new tool list while running is news too (the count in the daemon event changes).
    if (this.state === 'running') this.options.onChange(this);
  }

  /**
   * A server shared by sessions serves one session's calls at a time, so what it asks of
   * agentd during a call is that session's for certain (see OneSessionAtATime).
   */
  private async call(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    if (this.options.sessionId !== undefined) return this.callNow(name, args, ctx);
    try {
      await this.sessionTurns.enter(ctx.sessionId, ctx.signal);
    } catch {
      return { content: [{ type: 'text', text: `The call to "${name}" was cancelled while another session's call to MCP server "${this.name}" ran.` }], isError: true };
    }
    try {
      return await this.callNow(name, args, ctx);
    } finally {
      this.sessionTurns.leave();
    }
  }

  private async callNow(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const { signal } = ctx;
    const fail = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });
    if (this.state === 'restarting') return fail(`MCP server "${this.name}" is restarting after a crash; try again shortly.`);
    const client = this.client;
    if (this.state !== 'running' || !client) {
      return fail(`MCP server "${this.name}" is not running (${this.state}${this.lastError ? `: ${this.lastError}` : ''}).`);
    }
    this.activeCalls.push(ctx);
    let progressText = '';
    try {
      // A config server serves every session; its roots follow the session calling it
      // (it started with none), so it is told when that session changes.
      if (this.options.sessionId === undefined && this.lastCallSession !== ctx.sessionId) {
        this.lastCallSession = ctx.sessionId;
        await client.sendRootsListChanged().catch(() => undefined);
      }
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: this.options.callTimeoutMs,
        // Progress keeps a slow call alive and is shown to the user as it comes.
        resetTimeoutOnProgress: true,
        onprogress: (progress) => {
          const line = describeProgress(progress);
          progressText += `${line}\n`;
          ctx.onProgress({ delta: `${line}\n`, output: progressText });
        },
      });
      return mcpResultToToolResult(result);
    } catch (error) {
      if (signal.aborted) return fail(`The call to "${name}" was cancelled.`);
      const code = error instanceof McpError ? error.code : undefined;
      // The state may have changed while the call ran (the server crashed under it).
      if ((this.state as McpServerState) === 'restarting' || code === ErrorCode.ConnectionClosed) {
        return fail(`MCP server "${this.name}" crashed while running "${name}"; it is restarting, try again shortly.`);
      }
      if (code === ErrorCode.RequestTimeout) return fail(`MCP server "${this.name}" did not answer "${name}" within ${this.options.callTimeoutMs} ms.`);
      return fail(`MCP server "${this.name}" answered "${name}" with an error: ${(error as Error).message}`);
    } finally {
      this.activeCalls.splice(this.activeCalls.indexOf(ctx), 1);
    }
  }

  private onCrash(): void {
    // A server that stayed up a good while starts its backoff over.
    if (Date.now() - this.runningSince >= this.options.backoff.maxMs) this.crashes = 0;
    this.lastError = 'exited unexpectedly';
    this.state = 'restarting';
    this.scheduleRestart('exited unexpectedly');
  }

  private scheduleRestart(why: string): void {
    this.crashes += 1;
    const delay = restartDelay(this.crashes, this.options.backoff);
    this.options.log(`MCP server ${this.name} ${why}; restarting in ${delay} ms`);
    this.restartTimer = setTimeout(() => void this.restart(), delay);
    // Never the reason the daemon stays alive; stop() clears it anyway.
    this.restartTimer.unref();
  }

  private async restart(): Promise<void> {
    if (this.state !== 'restarting') return;
    try {
      await this.connectWithinLimit();
      if (this.state !== 'restarting') return;
      this.lastError = undefined;
      this.runningSince = Date.now();
      this.state = 'running';
      this.options.log(`MCP server ${this.name} restarted with ${this.tools.length} tool(s)`);
    } catch (error) {
      if (this.state !== 'restarting') return;
      this.lastError = (error as Error).message;
      this.options.onChange(this);
      this.scheduleRestart(`could not be restarted (${this.lastError})`);
    }
  }

  private unregisterTools(): void {
    const { registry, sessionId } = this.options;
    for (const tool of this.tools) {
      if (registry.entry(tool.name, sessionId)?.tool === tool) registry.unregister(tool.name, sessionId);
    }
    this.tools = [];
  }
}

/** One MCP progress notification as a line: its message, and `3/10` or `3` when it counts. */
function describeProgress(progress: { progress: number; total?: number; message?: string }): string {
  const count = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  return progress.message ? `${progress.message} (${count})` : `Progress: ${count}`;
}
