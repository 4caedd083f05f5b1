import { signal } from '@preact/signals';
import { connectWebSocket, type AgentdConnection, type WebSocketLike } from '../../../typescript/src/browser.js';

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/** Waits before the next automatic reconnect: doubling from 1 s up to 30 s. */
function backoffMs(attempt: number): number {
  return Math.min(30_000, 1_000 * 2 ** attempt);
}

/**
 * The page's one connection to the daemon (`/rpc` on the page's own origin), kept open: on a
 * close it reconnects by itself with a growing wait, and `reconnect()` tries at once. Each new
 * connection is handed to `attach` (which registers the handlers) before `initialize`, so no
 * message sent right after it is missed; views read `client`, which is null while down.
 */
export class DashboardConnection {
  readonly status = signal<ConnectionStatus>('connecting');
  readonly client = signal<AgentdConnection | null>(null);
  /** Why the last attempt failed or the connection closed; null while connected. */
  readonly problem = signal<string | null>(null);
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** A connection attempt is under way: another one waits for its outcome. */
  private connecting = false;

  constructor(
    private readonly url: string,
    private readonly attach: (client: AgentdConnection) => void,
    /** Opens the socket; the platform's WebSocket unless given (a test's `ws`). */
    private readonly createSocket?: (url: string) => WebSocketLike,
  ) {}

  /** Connects now (dropping a scheduled retry); nothing while an attempt is under way or the connection is up. */
  reconnect(): void {
    this.stopped = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.connecting || this.client.value) return;
    this.connecting = true;
    void this.connect().finally(() => (this.connecting = false));
  }

  /** Closes the connection for good: no reconnect follows. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client.value;
    this.client.value = null;
    client?.close();
    this.status.value = 'disconnected';
  }

  private async connect(): Promise<void> {
    this.status.value = 'connecting';
    let client: AgentdConnection | undefined;
    try {
      client = await connectWebSocket(this.url, this.createSocket ? { createSocket: this.createSocket } : {});
      this.attach(client);
      await client.request('initialize', {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, session: { notices: {} } },
        clientInfo: { name: 'agentd-dashboard', version: '1' },
        _meta: { agentd: { events: true } },
      });
    } catch (error) {
      client?.close();
      this.fail(error instanceof Error ? error.message : String(error));
      return;
    }
    const connected = client;
    if (this.stopped) return connected.close();
    this.attempt = 0;
    this.problem.value = null;
    this.client.value = connected;
    this.status.value = 'connected';
    void connected.closed.then(() => {
      if (this.client.value !== connected) return;
      this.client.value = null;
      this.fail('the connection to agentd closed');
    });
  }

  private fail(problem: string): void {
    this.problem.value = problem;
    this.status.value = 'disconnected';
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => this.reconnect(), backoffMs(this.attempt++));
  }
}
