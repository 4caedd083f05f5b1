import { AgentdConnection, type AgentdClientOptions } from './agentd-connection.js';
import type { WebSocketLike } from './websocket-like.js';
import { WebSocketMessageReader } from './websocket-message-reader.js';
import { WebSocketMessageWriter } from './websocket-message-writer.js';

export interface ConnectWebSocketOptions extends AgentdClientOptions {
  /** Opens the socket; default: the platform's `WebSocket` (a browser's, Node 22's). */
  createSocket?: (url: string) => WebSocketLike;
}

/** A typed connection over an open WebSocket speaking one JSON-RPC message per text frame. */
export function connectionOverWebSocket(socket: WebSocketLike, options: AgentdClientOptions = {}): AgentdConnection {
  return new AgentdConnection(new WebSocketMessageReader(socket), new WebSocketMessageWriter(socket), options);
}

/**
 * Opens a WebSocket to the daemon's `/rpc` (e.g. `ws://127.0.0.1:7433/rpc`; a page passes its
 * own origin's) and resolves with a typed connection once it is open; rejects if it closes or
 * fails first (a refused origin or a missing login both end the upgrade with 401 or 403).
 * Send `initialize` first, as on any transport.
 */
export function connectWebSocket(url: string, options: ConnectWebSocketOptions = {}): Promise<AgentdConnection> {
  const { createSocket = platformWebSocket, ...clientOptions } = options;
  return new Promise((resolve, reject) => {
    const socket = createSocket(url);
    const onOpen = (): void => {
      settle();
      resolve(connectionOverWebSocket(socket, clientOptions));
    };
    const onFail = (): void => {
      settle();
      reject(new Error(`cannot open a WebSocket to ${url}: the daemon refused it or is not running (sign in again from \`agentd dashboard\` if the login expired)`));
    };
    const settle = (): void => {
      socket.removeEventListener('open', onOpen);
      socket.removeEventListener('error', onFail);
      socket.removeEventListener('close', onFail);
    };
    socket.addEventListener('open', onOpen);
    socket.addEventListener('error', onFail);
    socket.addEventListener('close', onFail);
  });
}

function platformWebSocket(url: string): WebSocketLike {
  const WebSocket = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (WebSocket === undefined) throw new Error('this platform has no WebSocket; pass createSocket (e.g. from the ws package)');
  return new WebSocket(url);
}
