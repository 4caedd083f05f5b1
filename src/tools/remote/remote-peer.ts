/**
 * The connection a client-registered tool or a client hook talks back through: one
 * JSON-RPC peer that can be sent requests and that tells when it goes away. The
 * server's `JsonRpcConnection` is one; tools/ only sees this interface, so it never
 * reaches up into the server layer.
 */
export interface RemotePeer {
  /** For messages, e.g. `unix#3`. */
  readonly label: string;
  /** True once the connection has closed; requests then fail at once. */
  readonly closed: boolean;
  /**
   * Sends a request and resolves with the peer's result. Rejects on an error answer, on
   * timeout, on abort (after sending `$/cancel_request`) and when the connection closes.
   */
  request(method: string, params: unknown, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<unknown>;
  /** Runs `listener` once when the connection closes (at once when already closed). */
  onClose(listener: () => void): void;
}
