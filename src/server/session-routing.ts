import type { ParamsOf, ResultOf } from '../../protocol/index.js';

/** The requests that act on a running session and so must reach the daemon that owns it. */
export type RoutedMethod = 'session/prompt' | 'session/steer' | 'session/followUp' | 'session/abort';

/**
 * The daemon a request is forwarded to: the session's `owner` (it holds the lease), or a
 * daemon `serving` the session's folder (`cluster.roots`) while nobody owns it.
 */
export interface ForwardTarget {
  daemonId: string;
  role: 'owner' | 'serving';
}

/**
 * How a handler reaches the daemon that owns a session (holds its lease) when that is
 * another daemon of the cluster. On the SQLite store, and until a session has an owner,
 * `ownerElsewhere` answers undefined and the request runs here as on one daemon.
 */
export interface SessionRouting {
  /** This daemon's id (`dmn_` and 16 hex digits). */
  readonly daemonId: string;
  /** The owner of the session when it is another daemon; undefined when this daemon serves it. */
  ownerElsewhere(sessionId: string): Promise<string | undefined>;
  /**
   * Sends the request to the target daemon and resolves with its answer: a prompt's when its
   * turn ends there. Aborting `signal` cancels a forwarded prompt's turn. Rejects with the
   * target's JSON-RPC error, or when the target can no longer answer: an owner that lost
   * the session, a serving daemon that is gone or whose session another daemon took
   * (RequestNotTakenError when it had not taken the request: route it again).
   */
  forward<M extends RoutedMethod>(target: ForwardTarget, method: M, params: ParamsOf<M>, signal: AbortSignal): Promise<ResultOf<M>>;
  /** Cancels the session's running turn on `daemonId` (ACP `session/cancel`); resolves once sent. */
  cancel(daemonId: string, sessionId: string): Promise<void>;
}

/**
 * The owner a request was forwarded to lost the session (it died, its lease ended) before
 * taking the request: nothing of it ran, and the sender routes it again (to the new owner,
 * or runs it itself), so it is neither lost nor run twice.
 */
export class RequestNotTakenError extends Error {
  constructor(
    readonly owner: string,
    readonly sessionId: string,
  ) {
    super(`daemon ${owner} lost session ${sessionId} before it took the request`);
    this.name = 'RequestNotTakenError';
  }
}
