import { AbstractMessageReader, Disposable, type DataCallback, type Message } from 'vscode-jsonrpc/node.js';
import { toLspCancel } from '../../../protocol/wire/cancel-request-strategy.js';
import type { WebSocketCloseEvent, WebSocketLike, WebSocketMessageEvent } from './websocket-like.js';

/**
 * vscode-jsonrpc's MessageReader over a WebSocket: one JSON-RPC message per text frame, as the
 * daemon's `/rpc` endpoint speaks it. A frame that is not a JSON object is reported through
 * `onError` and skipped; ACP's `$/cancel_request` is passed on as LSP's `$/cancelRequest`
 * (see toLspCancel). The socket's close ends the connection.
 */
export class WebSocketMessageReader extends AbstractMessageReader {
  constructor(private readonly socket: WebSocketLike) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onMessage = (event: WebSocketMessageEvent): void => this.deliver(event.data, callback);
    const onClose = (event: WebSocketCloseEvent): void => {
      if (event.code !== 1000 && event.code !== 1005) this.fireError(new Error(`the WebSocket closed with code ${event.code}${event.reason ? `: ${event.reason}` : ''}`));
      this.fireClose();
    };
    const onError = (): void => this.fireError(new Error('the WebSocket failed'));
    this.socket.addEventListener('message', onMessage);
    this.socket.addEventListener('close', onClose);
    this.socket.addEventListener('error', onError);
    return Disposable.create(() => {
      this.socket.removeEventListener('message', onMessage);
      this.socket.removeEventListener('close', onClose);
      this.socket.removeEventListener('error', onError);
    });
  }

  private deliver(data: unknown, callback: DataCallback): void {
    if (typeof data !== 'string') {
      this.fireError(new Error('received a binary WebSocket frame; agentd sends each message as one text frame'));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      this.fireError(new Error(`received a frame that is not JSON: ${data.slice(0, 200)}`));
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.fireError(new Error(`received a JSON value that is not a message object: ${data.slice(0, 200)}`));
      return;
    }
    const delivered = toLspCancel(message as Record<string, unknown>);
    if (delivered) callback(delivered as unknown as Message);
  }
}
