import type { MethodName, ParamsOf, ResultOf } from '../../protocol/index.js';
import type { ClientConnection } from './wire/client-connection.js';
import type { DaemonContext } from './daemon-context.js';

/** What a handler gets besides its validated params. */
export interface HandlerContext {
  client: ClientConnection;
  daemon: DaemonContext;
  /** Fires when the request is cancelled or the connection closes. */
  signal: AbortSignal;
  /** The methods this daemon serves (the handler table's keys). */
  servedMethods: ReadonlySet<string>;
}

export type RequestHandler<M extends MethodName> = (
  params: ParamsOf<M>,
  ctx: HandlerContext,
) => Promise<ResultOf<M>> | ResultOf<M>;

/**
 * One loader per client-to-daemon method; a missing entry answers MethodNotFound. A
 * handler's module (and what it needs) loads on the method's first call.
 */
export type HandlerTable = { [M in MethodName]?: () => Promise<RequestHandler<M>> };
