import type { MessageReader, MessageWriter } from 'vscode-jsonrpc/node.js';
import type {
  ClientNotificationMethod,
  ClientRequestMethod,
  DaemonNotificationMethod,
  DaemonRequestMethod,
  ParamsOf,
  ResultOf,
} from '../../../protocol/index.js';
import { ErrorCodes } from '../../../protocol/error-codes.js';
import { JsonRpcPeer } from '../../../protocol/wire/json-rpc-peer.js';
import type { IncomingRequestContext, NotificationHandler, RequestHandler } from '../../../protocol/wire/peer-role.js';
import { AgentdClientError, AgentdConnectionClosedError } from './agentd-client-error.js';

export type { IncomingRequestContext, NotificationHandler, RequestHandler };

/** Options of one outgoing request. */
export interface RequestOptions {
  /** Aborting sends `$/cancel_request`; the promise still settles with the daemon's answer. */
  signal?: AbortSignal;
}

export interface AgentdClientOptions {
  /** Malformed lines and answers to unknown ids; the connection keeps going. Default: ignored. */
  onProtocolError?: (error: Error) => void;
  /**
   * What keeps Node running for this connection (a spawned daemon, its pipes, a socket):
   * held (`ref`) only while a request is pending or a daemon request is being answered,
   * let go (`unref`) otherwise, so a script whose work is done exits without `close()`,
   * as an idle keep-alive socket of Node's http agent does. Default: none, the streams
   * are left as the caller made them.
   */
  holdWhileBusy?: Array<{ ref(): unknown; unref(): unknown }>;
}

/**
 * A typed agentd connection over any vscode-jsonrpc MessageReader/MessageWriter pair (NDJSON
 * on a stream, one message per WebSocket frame): `request`, `notify`, `onRequest` and
 * `onNotification`, typed by the protocol's method table. It loads no schema at run time,
 * which is what lets the browser bundle leave zod out; AgentdClient adds the table's
 * convenience methods (`newSession`, `prompt`, ...). Incoming messages are not re-validated:
 * the daemon builds what it sends from the protocol's inferred types, and a newer daemon's
 * extra fields pass through.
 */
export class AgentdConnection {
  private readonly peer: JsonRpcPeer<'client'>;
  private isClosed = false;
  /** The daemon's error answer without an id, sent just before it closed the connection. */
  private lastWords: AgentdClientError | undefined;
  /** Requests pending either way; while above 0, `holdWhileBusy` is held. */
  private busy = 0;
  private resolveClosed!: () => void;
  /** Settles when the connection has closed (either side). */
  readonly closed: Promise<void> = new Promise((resolve) => (this.resolveClosed = resolve));

  constructor(
    reader: MessageReader,
    private readonly writer: MessageWriter,
    protected readonly options: AgentdClientOptions = {},
  ) {
    // An error answer without an id (a frame over the daemon's limit, unreadable input) is the
    // daemon's last word before it closes: kept, so pending requests fail with it.
    const listen = reader.listen.bind(reader);
    reader.listen = (callback) =>
      listen((message) => {
        const error = (message as { id?: unknown; error?: { code: number; message: string; data?: unknown } }).error;
        if ((message as { id?: unknown }).id === null && error) this.lastWords = new AgentdClientError(error.code, error.message, error.data);
        else callback(message);
      });
    reader.onError((error) => this.options.onProtocolError?.(new Error(`agentd client: ${error.message}`)));
    this.peer = new JsonRpcPeer<'client'>(reader, writer, {
      label: 'agentd',
      toRequestError: (error) => new AgentdClientError(error.code, error.message, error.data),
      // An error answer without an id, read just before the close, says why better than "closed".
      closedError: (method) => this.lastWords ?? new AgentdConnectionClosedError(method),
      noHandler: (method) => ({
        code: ErrorCodes.MethodNotFound,
        message: `this client has no handler for ${method}; register one with onRequest('${method}', ...)`,
      }),
      cancelledBeforeRun: (method) => ({ code: ErrorCodes.RequestCancelled, message: `${method} was cancelled by agentd before it ran` }),
      abortReason: () => new Error('cancelled by agentd'),
      toErrorAnswer: (method, error) => {
        if (error instanceof AgentdClientError) return { code: error.code, message: error.message, data: error.data };
        const detail = error instanceof Error ? error.message : String(error);
        return { code: ErrorCodes.InternalError, message: `client handler for ${method} failed: ${detail}` };
      },
    });
    this.peer.onClose(() => this.close());
    for (const handle of this.options.holdWhileBusy ?? []) handle.unref();
  }

  /** Counts a request in or out of flight, holding the process only while one is. */
  private track<T>(work: Promise<T>): Promise<T> {
    if (this.busy++ === 0) for (const handle of this.options.holdWhileBusy ?? []) handle.ref();
    const done = (): void => {
      if (--this.busy === 0) for (const handle of this.options.holdWhileBusy ?? []) handle.unref();
    };
    work.then(done, done);
    return work;
  }

  /** Send a request and wait for its result; an error answer rejects with AgentdClientError. */
  request<M extends ClientRequestMethod>(method: M, params: ParamsOf<M>, options: RequestOptions = {}): Promise<ResultOf<M>> {
    if (this.isClosed) return Promise.reject(new AgentdConnectionClosedError(method));
    // The abort sends `$/cancel_request`; the daemon's answer (RequestCancelled, or the result) settles it.
    return this.track(this.peer.request(method, params, options));
  }

  /** Send a notification (no answer). */
  notify<M extends ClientNotificationMethod>(method: M, params: ParamsOf<M>): void {
    this.peer.notify(method, params);
  }

  /** Handle a daemon notification; several handlers per method are allowed. Returns an unsubscribe. */
  onNotification<M extends DaemonNotificationMethod>(method: M, handler: NotificationHandler<M>): () => void {
    return this.peer.onNotification(method, handler);
  }

  /**
   * Answer a daemon request (`session/request_permission`, `tools/call`, `hooks/*`): one
   * handler per method, replacing any earlier one. Throw AgentdClientError to answer with a
   * specific error code; any other throw answers InternalError. Returns an unregister.
   */
  onRequest<M extends DaemonRequestMethod>(method: M, handler: RequestHandler<M>): () => void {
    return this.peer.onRequest(method, (params, context) => this.track(Promise.resolve().then(() => handler(params, context))));
  }

  /** Close the connection: ends the output, rejects pending requests, aborts incoming ones. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.peer.close();
    this.writer.end();
    this.resolveClosed();
  }
}
