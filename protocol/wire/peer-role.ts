import type {
  ClientNotificationMethod,
  ClientRequestMethod,
  DaemonNotificationMethod,
  DaemonRequestMethod,
  ParamsOf,
  ResultOf,
} from '../methods.js';

/** Which end of an agentd connection a peer is: it decides which table methods it may send and handle. */
export type PeerRole = 'client' | 'daemon';

type OtherRole<R extends PeerRole> = R extends 'client' ? 'daemon' : 'client';

/** Requests role R may send (a method the other side sends fails to compile). */
export type RequestsSentBy<R extends PeerRole> = R extends 'client' ? ClientRequestMethod : DaemonRequestMethod;
/** Notifications role R may send; the cancel notifications count for both. */
export type NotificationsSentBy<R extends PeerRole> = R extends 'client' ? ClientNotificationMethod : DaemonNotificationMethod;
/** Requests role R answers: the other side's. */
export type RequestsHandledBy<R extends PeerRole> = RequestsSentBy<OtherRole<R>>;
/** Notifications role R receives: the other side's. */
export type NotificationsHandledBy<R extends PeerRole> = NotificationsSentBy<OtherRole<R>>;

/** What a handler of an incoming request gets besides the params. */
export interface IncomingRequestContext {
  /** Aborted when the other side cancels the request (`$/cancel_request`) or the connection closes. */
  signal: AbortSignal;
}

/** Answers request M: its result, typed by the method table. */
export type RequestHandler<M extends ClientRequestMethod | DaemonRequestMethod> = (
  params: ParamsOf<M>,
  context: IncomingRequestContext,
) => ResultOf<M> | Promise<ResultOf<M>>;

export type NotificationHandler<M extends ClientNotificationMethod | DaemonNotificationMethod> = (params: ParamsOf<M>) => void;
