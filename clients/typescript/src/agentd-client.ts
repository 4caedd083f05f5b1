import type { Readable, Writable } from 'node:stream';
import { CancellationTokenSource, ResponseError, createMessageConnection, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type {
  ClientNotificationMethod,
  ClientRequestMethod,
  DaemonNotificationMethod,
  DaemonRequestMethod,
  ParamsOf,
  ResultOf,
} from '../../../protocol/index.js';
import { ErrorCodes } from '../../../protocol/index.js';
import { cancelRequestStrategy } from '../../../protocol/wire/cancel-request-strategy.js';
import { NdjsonMessageReader } from '../../../protocol/wire/ndjson-message-reader.js';
import { NdjsonMessageWriter } from '../../../protocol/wire/ndjson-message-writer.js';
import { AgentdClientError, AgentdConnectionClosedError } from './agentd-client-error.js';
import { installProtocolMethods, type MethodSender, type ProtocolMethods, type RequestOptions } from './protocol-methods.js';

/** What a handler of a daemon → client request gets besides the params. */
export interface IncomingRequestContext {
  /** Aborted when the daemon cancels the request (`$/cancel_request`) or the connection closes. */
  signal: AbortSignal;
}

export type NotificationHandler<M extends DaemonNotificationMethod> = (params: ParamsOf<M>) => void;
export type RequestHandler<M extends DaemonRequestMethod> = (
  params: ParamsOf<M>,
  context: IncomingRequestContext,
) => ResultOf<M> | Promise<ResultOf<M>>;

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

/** Interface half of the class: the derived convenience methods (`newSession`, `prompt`, ...). */
export interface AgentdClient extends ProtocolMethods {}

/**
 * A typed agentd client over any duplex byte stream speaking NDJSON JSON-RPC 2.0 (the
 * daemon's default framing): a child process's stdio, a unix socket, a TCP socket. The
 * peer is vscode-jsonrpc's MessageConnection with agentd's NDJSON reader and writer and
 * ACP's `$/cancel_request`. Incoming messages are not re-validated here: the daemon builds
 * what it sends from the protocol's inferred types (its tests check the wire against the
 * schemas), and a newer daemon's extra fields pass through.
 */
export class AgentdClient {
  private readonly connection: MessageConnection;
  private readonly output: Writable;
  private readonly pending = new Set<{ method: string; reject(error: Error): void }>();
  private readonly notificationHandlers = new Map<string, Set<(params: never) => void>>();
  private readonly requestHandlers = new Map<string, (params: never, context: IncomingRequestContext) => unknown>();
  private isClosed = false;
  /** The daemon's error answer without an id, sent just before it closed the connection. */
  private lastWords: AgentdClientError | undefined;
  /** Requests pending either way; while above 0, `holdWhileBusy` is held. */
  private busy = 0;
  private resolveClosed!: () => void;
  /** Settles when the connection has closed (either side). */
  readonly closed: Promise<void> = new Promise((resolve) => (this.resolveClosed = resolve));

  constructor(input: Readable, output: Writable, private readonly options: AgentdClientOptions = {}) {
    this.output = output;
    const awaited = new Set<string | number>();
    const reader = new NdjsonMessageReader(input, awaited);
    // An error answer without an id (a frame over the daemon's limit, unreadable input) is the
    // daemon's last word before it closes: kept, so pending requests fail with it.
    const listen = reader.listen.bind(reader);
    reader.listen = (callback) =>
      listen((message) => {
        const error = (message as { id?: unknown; error?: { code: number; message: string; data?: unknown } }).error;
        if ((message as { id?: unknown }).id === null && error) this.lastWords = new AgentdClientError(error.code, error.message, error.data);
        else callback(message);
      });
    const writer = new NdjsonMessageWriter(output, awaited);
    reader.onError((error) => this.options.onProtocolError?.(new Error(`agentd client: ${error.message}`)));
    this.connection = createMessageConnection(reader, writer, undefined, { cancellationStrategy: cancelRequestStrategy });
    this.connection.onNotification((method, params) => {
      for (const handler of this.notificationHandlers.get(method) ?? []) handler(params as never);
    });
    this.connection.onRequest((method, params, token) => this.track(this.answer(method, params, token)));
    this.connection.onClose(() => this.close());
    this.connection.listen();
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
    const { signal } = options;
    if (this.isClosed) return Promise.reject(new AgentdConnectionClosedError(method));
    if (signal?.aborted) return Promise.reject(signal.reason);
    // The abort sends `$/cancel_request`; the daemon's answer (RequestCancelled, or the result) settles it.
    const cancel = new CancellationTokenSource();
    const onAbort = (): void => cancel.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    return this.track(new Promise<ResultOf<M>>((resolve, reject) => {
      const entry = { method, reject };
      this.pending.add(entry);
      this.connection.sendRequest(method, params, cancel.token).then(
        (result) => resolve(result as ResultOf<M>),
        (error: unknown) => reject(error instanceof ResponseError ? new AgentdClientError(error.code, error.message, error.data) : error),
      ).finally(() => {
        this.pending.delete(entry);
        signal?.removeEventListener('abort', onAbort);
        cancel.dispose();
      });
    }));
  }

  /** Send a notification (no answer). */
  notify<M extends ClientNotificationMethod>(method: M, params: ParamsOf<M>): void {
    if (!this.isClosed) void this.connection.sendNotification(method, params).catch(() => undefined);
  }

  /** Handle a daemon notification; several handlers per method are allowed. Returns an unsubscribe. */
  onNotification<M extends DaemonNotificationMethod>(method: M, handler: NotificationHandler<M>): () => void {
    let handlers = this.notificationHandlers.get(method);
    if (handlers === undefined) this.notificationHandlers.set(method, (handlers = new Set()));
    const stored = handler as (params: never) => void;
    handlers.add(stored);
    return () => handlers.delete(stored);
  }

  /**
   * Answer a daemon request (`session/request_permission`, `tools/call`, `hooks/*`): one
   * handler per method, replacing any earlier one. Throw AgentdClientError to answer with a
   * specific error code; any other throw answers InternalError. Returns an unregister.
   */
  onRequest<M extends DaemonRequestMethod>(method: M, handler: RequestHandler<M>): () => void {
    const stored = handler as (params: never, context: IncomingRequestContext) => unknown;
    this.requestHandlers.set(method, stored);
    return () => {
      if (this.requestHandlers.get(method) === stored) this.requestHandlers.delete(method);
    };
  }

  /** Close the connection: ends the output, rejects pending requests, aborts incoming ones. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const entry of [...this.pending]) entry.reject(this.lastWords ?? new AgentdConnectionClosedError(entry.method));
    this.pending.clear();
    this.connection.dispose();
    this.output.end();
    this.resolveClosed();
  }

  /** Runs the registered handler for a daemon request; its throw becomes the error answer. */
  private async answer(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
    const handler = this.requestHandlers.get(method);
    if (handler === undefined) {
      return new ResponseError(ErrorCodes.MethodNotFound, `this client has no handler for ${method}; register one with onRequest('${method}', ...)`);
    }
    // Cancelled before it could run (the cancel was read with the request): answer as LSP does, without running it.
    if (token.isCancellationRequested) return new ResponseError(ErrorCodes.RequestCancelled, `${method} was cancelled by agentd before it ran`);
    const controller = new AbortController();
    const cancelled = token.onCancellationRequested(() => controller.abort(new Error('cancelled by agentd')));
    try {
      return (await handler(params as never, { signal: controller.signal })) ?? null;
    } catch (error) {
      if (error instanceof AgentdClientError) return new ResponseError(error.code, error.message, error.data);
      const detail = error instanceof Error ? error.message : String(error);
      return new ResponseError(ErrorCodes.InternalError, `client handler for ${method} failed: ${detail}`);
    } finally {
      cancelled.dispose();
    }
  }
}

// The typed generic signatures are wider at runtime: every method name is a plain string.
installProtocolMethods(AgentdClient.prototype as unknown as MethodSender);
