import type { Session } from '../../session/session.js';
import { DaemonPeer } from './daemon-peer.js';
import type { JsonRpcConnection } from './json-rpc-connection.js';

/** What the daemon knows about one connected client. */
export class ClientConnection {
  /** Set by `initialize`. */
  initialized = false;
  /** ACP client capabilities from `initialize`, as sent. */
  clientCapabilities: Record<string, unknown> = {};
  /** The client opted in to `agentd/event` notifications. */
  wantsEvents = false;
  /** TCP connections must present the token before anything else (see markAuthenticated). */
  authenticated: boolean;
  private readonly authenticatedListeners: Array<() => void> = [];
  /**
   * Session id → the live session object followed and how to stop following it. A closed
   * and reopened session is a new object, so the object is kept to tell them apart.
   */
  readonly attached = new Map<string, { session: Session; unsubscribe: () => void }>();
  /** What the daemon sends this client, typed and with its answers validated. */
  readonly peer: DaemonPeer;
  /** How it came in: `stdio`, `unix`, `tcp`, `http` (the page's WebSocket), `memory`, `run`. */
  readonly transport: string;

  constructor(
    readonly rpc: JsonRpcConnection,
    readonly id: string,
    options: {
      transport: string;
      requireToken: boolean;
      /** Told, once the connection has closed, which sessions it followed. */
      onClosed?: (followed: Session[]) => void;
    },
  ) {
    this.authenticated = !options.requireToken;
    this.transport = options.transport;
    this.peer = new DaemonPeer(rpc);
    rpc.onClose(() => {
      const followed = [...this.attached.values()].map(({ session }) => session);
      for (const { unsubscribe } of this.attached.values()) unsubscribe();
      this.attached.clear();
      options.onClosed?.(followed);
      this.authenticatedListeners.length = 0;
    });
  }

  /** The token checked out: the transport lifts its limits for unauthenticated peers. */
  markAuthenticated(): void {
    if (this.authenticated) return;
    this.authenticated = true;
    for (const listener of this.authenticatedListeners.splice(0)) listener();
  }

  onAuthenticated(listener: () => void): void {
    if (this.authenticated) listener();
    else this.authenticatedListeners.push(listener);
  }
}
