import { AbstractMessageWriter, type Message } from 'vscode-jsonrpc/node.js';
import { WEBSOCKET_OPEN, type WebSocketLike } from './websocket-like.js';

/** vscode-jsonrpc's MessageWriter over a WebSocket: one JSON-RPC message per text frame. */
export class WebSocketMessageWriter extends AbstractMessageWriter {
  constructor(private readonly socket: WebSocketLike) {
    super();
    socket.addEventListener('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    // A socket that has gone is an error event of the connection, not a rejection nobody may
    // be waiting for; its close ends the connection.
    if (this.socket.readyState !== WEBSOCKET_OPEN) {
      this.fireError(new Error('the WebSocket is not open; the message was not sent'), message);
      return Promise.resolve();
    }
    this.socket.send(JSON.stringify(message));
    return Promise.resolve();
  }

  end(): void {
    this.socket.close(1000, 'client closed');
  }
}
