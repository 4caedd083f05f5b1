/**
 * What the WebSocket transport uses of a WebSocket: the browser's own and the `ws` package's
 * both fit (their EventTarget-style `addEventListener`; a text frame's `data` is a string).
 */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed (the WebSocket standard's values). */
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: WebSocketMessageEvent) => void): void;
  addEventListener(type: 'close', listener: (event: WebSocketCloseEvent) => void): void;
  addEventListener(type: 'open' | 'error', listener: (event: unknown) => void): void;
  removeEventListener(type: 'message', listener: (event: WebSocketMessageEvent) => void): void;
  removeEventListener(type: 'close', listener: (event: WebSocketCloseEvent) => void): void;
  removeEventListener(type: 'open' | 'error', listener: (event: unknown) => void): void;
}

/** `readyState` of an open socket. */
export const WEBSOCKET_OPEN = 1;

/** The events the transport reads, as both implementations shape them. */
export interface WebSocketMessageEvent {
  data: unknown;
}
export interface WebSocketCloseEvent {
  code: number;
  reason: string;
}
