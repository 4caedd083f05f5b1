import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import type {
  ContentBlock,
  InitializeResponse,
  RequestPermissionRequest,
  SessionUpdate,
  ToolDefinition,
} from '../../../protocol/index.js';
import { AgentdClient } from './agentd-client.js';
import { AgentdClientError } from './agentd-client-error.js';
import { AgentdSession } from './agentd-session.js';
import { openSocket, UnsafeSocketPathError } from './connect-socket.js';
import { ErrorCodes } from '../../../protocol/index.js';

export interface SpawnOptions {
  /** The command and its arguments; default `agentd serve --stdio`. */
  command?: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Name and version sent in `initialize`. */
  clientInfo?: { name: string; version: string };
}

export interface ConnectOptions {
  /** The daemon's Unix socket (`agentd doctor` shows it). */
  socketPath: string;
  /**
   * When nothing listens there yet, start the shared daemon on the socket (as `agentd acp`
   * does) and wait for it: `true` runs `agentd serve --socket PATH --on-demand`, which exits
   * by itself after `server.idleExitMs` (30 min) with nothing to do and logs to daemon.log
   * (`agentd logs`); `command` runs another. Without it, a missing daemon is an error.
   */
  start?: true | { command?: string[]; env?: NodeJS.ProcessEnv; timeoutMs?: number };
  clientInfo?: { name: string; version: string };
}

/** What a registered tool's handler returns: text, content blocks, or a full result. */
export type ToolOutput = string | ContentBlock[] | { content: ContentBlock[]; isError?: boolean };
export type ToolHandler = (args: Record<string, unknown>, context: { sessionId: string; toolCallId: string; signal: AbortSignal }) => ToolOutput | Promise<ToolOutput>;

/** Picks a permission option: its optionId, or 'cancelled'. */
export type PermissionHandler = (request: RequestPermissionRequest, context: { signal: AbortSignal }) => string | Promise<string>;

/**
 * The agentd SDK: one connection to a daemon (spawned on stdio, or its shared socket),
 * with sessions, client-side tools and a permission handler. The typed protocol is
 * under `client` for anything not wrapped here.
 */
export class Agentd {
  private readonly sessions = new Map<string, AgentdSession>();
  private readonly tools = new Map<string, ToolHandler>();

  private constructor(
    readonly client: AgentdClient,
    readonly info: InitializeResponse,
    private readonly stop: () => void,
  ) {
    client.onNotification('session/update', (params) => this.sessions.get(params.sessionId)?.deliver(params.update));
    client.onRequest('tools/call', async (params, { signal }) => {
      const handler = this.tools.get(params.name);
      if (!handler) throw new AgentdClientError(ErrorCodes.MethodNotFound, `this client registered no tool ${params.name}`);
      try {
        return asToolResult(await handler(params.arguments, { sessionId: params.sessionId, toolCallId: params.toolCallId, signal }));
      } catch (error) {
        // A failing tool is the model's to read, not a protocol error.
        return { content: [{ type: 'text', text: `${params.name} failed: ${error instanceof Error ? error.message : String(error)}` }], isError: true };
      }
    });
  }

  /** Spawns `agentd serve --stdio` (which joins the shared daemon when one owns the data directory). */
  static async spawn(options: SpawnOptions = {}): Promise<Agentd> {
    const [command, ...args] = options.command ?? ['agentd', 'serve', '--stdio'];
    const child: ChildProcessWithoutNullStreams = spawn(command!, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: 'pipe' });
    const failed = new Promise<never>((_, reject) => child.once('error', (error) => reject(new Error(`cannot start ${command}: ${error.message}`))));
    failed.catch(() => undefined);
    // Held only while a request is in flight: a finished script exits, its daemon with it (stdin closes).
    const client = new AgentdClient(child.stdout, child.stdin, { holdWhileBusy: [child, ...([child.stdin, child.stdout, child.stderr] as object[]).filter(isHandle)] });
    const info = await Promise.race([initialize(client, options.clientInfo), failed]);
    return new Agentd(client, info, () => child.kill('SIGTERM'));
  }

  /** Connects to the daemon's socket, starting one first when `start` says how. */
  static async connect(options: ConnectOptions): Promise<Agentd> {
    let socket: Socket;
    try {
      socket = await openSocket(options.socketPath);
    } catch (error) {
      // Another user's folder or socket: starting a daemon there would not make it ours.
      if (error instanceof UnsafeSocketPathError) throw error;
      if (!options.start) {
        throw new Error(`no agentd listens on ${options.socketPath} (${(error as Error).message}); start one with agentd serve --socket, or pass start: true`);
      }
      socket = await startAndConnect(options.socketPath, options.start === true ? {} : options.start);
    }
    const client = new AgentdClient(socket, socket, { holdWhileBusy: [socket] });
    const info = await initialize(client, options.clientInfo);
    return new Agentd(client, info, () => socket.destroy());
  }

  /** Creates a session in `cwd` and follows it. */
  async newSession(options: { cwd: string; additionalDirectories?: string[] }): Promise<AgentdSession> {
    const { sessionId } = await this.client.newSession({ cwd: options.cwd, mcpServers: [], ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}) });
    return this.follow(sessionId);
  }

  /**
   * Loads a stored session, or joins one another client is running: `history` holds what
   * the daemon replayed (the stored conversation, then a running turn's reply so far);
   * the live rest arrives through the session's onUpdate.
   */
  async loadSession(sessionId: string, options: { cwd: string }): Promise<{ session: AgentdSession; history: SessionUpdate[] }> {
    const session = this.follow(sessionId);
    const history: SessionUpdate[] = [];
    const stop = session.onUpdate((update) => history.push(update));
    try {
      await this.client.loadSession({ sessionId, cwd: options.cwd, mcpServers: [] });
    } finally {
      stop();
    }
    return { session, history };
  }

  /** Offers a tool this process runs; the model can call it in every session of the daemon. */
  async registerTool(name: string, definition: Omit<ToolDefinition, 'name'>, handler: ToolHandler): Promise<void> {
    this.tools.set(name, handler);
    await this.client.registerTools({ tools: [{ name, ...definition }] });
  }

  /** Answers the daemon's permission questions; without a handler the daemon's permission mode decides. */
  onPermission(handler: PermissionHandler): void {
    this.client.onRequest('session/request_permission', async (params, { signal }) => {
      const choice = await handler(params, { signal });
      if (choice === 'cancelled') return { outcome: { outcome: 'cancelled' } };
      return { outcome: { outcome: 'selected', optionId: choice } };
    });
  }

  /**
   * Closes the connection (and stops a daemon this object spawned on stdio). A script
   * whose requests have all been answered exits without it; between requests nothing
   * here keeps Node running, so a script that waits only for another client's updates
   * keeps itself alive (a timer, a server) meanwhile.
   */
  close(): void {
    this.client.close();
    this.stop();
  }

  private follow(sessionId: string): AgentdSession {
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = new AgentdSession(this.client, sessionId)));
    return session;
  }
}

function initialize(client: AgentdClient, clientInfo = { name: 'agentd-sdk', version: '0.1.0' }): Promise<InitializeResponse> {
  return client.initialize({ protocolVersion: 1, clientCapabilities: {}, clientInfo });
}

/** A child's pipes are sockets at run time, though typed as plain streams. */
function isHandle(stream: object): stream is { ref(): unknown; unref(): unknown } {
  return typeof (stream as { ref?: unknown }).ref === 'function' && typeof (stream as { unref?: unknown }).unref === 'function';
}

function asToolResult(output: ToolOutput): { content: ContentBlock[]; isError?: boolean } {
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  if (Array.isArray(output)) return { content: output };
  return output;
}

/** Starts a daemon detached (it outlives this process, to serve other clients) and connects once it listens. */
async function startAndConnect(path: string, start: Exclude<ConnectOptions['start'], true | undefined>): Promise<Socket> {
  const commandLine = start.command ?? ['agentd', 'serve', '--socket', path, '--on-demand'];
  const [command, ...args] = commandLine;
  const child = spawn(command!, args, { env: start.env ?? process.env, detached: true, stdio: 'ignore' });
  child.unref();
  // Another client may start one meanwhile, so only our child's end while nothing listens is fatal.
  let ended: string | undefined;
  child.once('error', (error) => (ended = `could not start ${command}: ${error.message}; is agentd on PATH? (or pass start.command)`));
  child.once('exit', (code, signal) => (ended ??= `${commandLine.join(' ')} exited (${signal ?? `code ${code}`}) before serving ${path}; \`agentd logs\` shows why`));
  const deadline = Date.now() + (start.timeoutMs ?? 10_000);
  for (;;) {
    try {
      return await openSocket(path);
    } catch (error) {
      if (error instanceof UnsafeSocketPathError) throw error;
      if (ended) throw new Error(ended);
      if (Date.now() > deadline) {
        throw new Error(`started ${commandLine.join(' ')}, but nothing listened on ${path} in time: ${(error as Error).message}; \`agentd logs\` shows why`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
