import type { DaemonRequestMethod, ParamsOf, ResultOf } from '../../../protocol/index.js';

/**
 * The connection a client-registered tool or a client hook talks back through: one
 * JSON-RPC peer that can be sent the daemon's requests and that tells when it goes away.
 * The server's DaemonPeer is one; tools/ only sees this interface, so it never reaches up
 * into the server layer.
 */
export interface RemotePeer {
  /** For messages, e.g. `unix#3`. */
  readonly label: string;
  /** True once the connection has closed; requests then fail at once. */
  readonly closed: boolean;
  /**
   * Sends one of the daemon's requests, typed by the protocol, and resolves with the
   * peer's result validated against the method's result schema (an InvalidResultError
   * otherwise). Rejects on an error answer, on timeout, on abort (after sending
   * `$/cancel_request`) and when the connection closes.
   */
  request<M extends DaemonRequestMethod>(method: M, params: ParamsOf<M>, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<ResultOf<M>>;
  /** Runs `listener` once when the connection closes (at once when already closed). */
  onClose(listener: () => void): void;
}
