import {
  CancellationTokenSource,
  ResponseError,
  createMessageConnection,
  type CancellationToken,
  type Logger,
  type MessageConnection,
  type MessageReader,
  type MessageWriter,
} from 'vscode-jsonrpc/node.js';
import { ErrorCodes } from '../error-codes.js';
import type { ParamsOf, ResultOf } from '../methods.js';
import { cancelRequestStrategy } from './cancel-request-strategy.js';
import type {
  IncomingRequestContext,
  NotificationHandler,
  NotificationsHandledBy,
  NotificationsSentBy,
  PeerRole,
  RequestHandler,
  RequestsHandledBy,
  RequestsSentBy,
} from './peer-role.js';

/** An error answer as the wire carries it. */
export interface ErrorAnswer {
  code: number;
  message: string;
  data?: unknown;
}

/** Options of one outgoing request. */
export interface OutgoingRequestOptions {
  /** Aborting tells the other side (`$/cancel_request`); `abortError` decides when the promise settles. */
  signal?: AbortSignal;
  /** No answer within this long: the other side is told to cancel and the promise rejects. */
  timeoutMs?: number;
}

/** How one user of the peer words its errors; each has a default. */
export interface JsonRpcPeerOptions {
  /** The other side, for messages (`unix#3`, `agentd`). Default `peer`. */
  label?: string;
  logger?: Logger;
  /** What a caller catches for an error answer. Default: vscode-jsonrpc's ResponseError. */
  toRequestError?(error: ResponseError<unknown>, method: string): Error;
  /** What a request rejects with when the connection is closed, or closes while it waits. */
  closedError?(method: string): Error;
  /**
   * Given: an aborted request rejects with this at once. Not given: it settles with the
   * other side's answer (RequestCancelled, or the result if that was first).
   */
  abortError?(method: string): Error;
  /** The error answer for a handler that threw; `aborted` when the request had been cancelled. */
  toErrorAnswer?(method: string, error: unknown, aborted: boolean): ErrorAnswer;
  /** The answer to a request cancelled before its handler ran (the cancel was read with it). */
  cancelledBeforeRun?(method: string): ErrorAnswer;
  /** The answer to a request no handler is registered for. */
  noHandler?(method: string): ErrorAnswer;
  /** The reason a handler's signal is aborted with. Default: the platform's AbortError. */
  abortReason?(method: string): unknown;
}

/** A handler of any method by name, for dispatch that checks names and params against the table itself. */
export type AnyRequestHandler = (method: string, params: unknown, context: IncomingRequestContext) => unknown;
export type AnyNotificationHandler = (method: string, params: unknown) => void;

/**
 * One JSON-RPC 2.0 peer of the agentd protocol over vscode-jsonrpc's MessageConnection, with
 * ACP's request cancellation, typed by the method table for role R: `request`, `notify`,
 * `onRequest` and `onNotification` take only methods R sends or handles, with their params
 * and results as the schemas infer them. The daemon's connection, the TypeScript client and
 * the tests' client are all this peer with their own reader and writer (framing, limits and
 * recording stay with them); the `…Unchecked` and `onAny…` members are for the one layer
 * that does not know the table (the daemon's connection, whose dispatch checks every name)
 * and for tests that send what the table forbids on purpose.
 */
export class JsonRpcPeer<R extends PeerRole> {
  private readonly connection: MessageConnection;
  /** This side's requests still waiting, to reject when the connection closes. */
  private readonly pending = new Set<{ method: string; reject(error: Error): void }>();
  /** Handlers running for the other side's requests, aborted when the connection closes. */
  private readonly running = new Set<AbortController>();
  private readonly requestHandlers = new Map<string, AnyRequestHandler>();
  private readonly notificationHandlers = new Map<string, Set<(params: unknown) => void>>();
  private anyRequestHandler: AnyRequestHandler | undefined;
  private anyNotificationHandler: AnyNotificationHandler | undefined;
  private readonly closeListeners: Array<() => void> = [];
  private closedFlag = false;

  constructor(
    reader: MessageReader,
    writer: MessageWriter,
    private readonly options: JsonRpcPeerOptions = {},
  ) {
    this.connection = createMessageConnection(reader, writer, options.logger, { cancellationStrategy: cancelRequestStrategy });
    this.connection.onRequest((method, params, token) => this.answer(method, params, token));
    this.connection.onNotification((method, params) => this.deliver(method, params));
    this.connection.onClose(() => this.close());
    this.connection.listen();
  }

  get label(): string {
    return this.options.label ?? 'peer';
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  onClose(listener: () => void): void {
    if (this.closedFlag) listener();
    else this.closeListeners.push(listener);
  }

  /** Sends request M and resolves with its result; an error answer, close, timeout (or abort, see abortError) rejects. */
  request<M extends RequestsSentBy<R>>(method: M, params: ParamsOf<M>, options?: OutgoingRequestOptions): Promise<ResultOf<M>> {
    return this.requestUnchecked(method, params, options) as Promise<ResultOf<M>>;
  }

  /** `request` by any name, its result unchecked: see the class comment for who may use it. */
  requestUnchecked(method: string, params: unknown, options: OutgoingRequestOptions = {}): Promise<unknown> {
    if (this.closedFlag) return Promise.reject(this.closedError(method));
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(this.options.abortError?.(method) ?? signal.reason);
    const cancel = new CancellationTokenSource();
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const entry = { method, reject: (error: Error) => settle(() => reject(error)) };
      const settle = (done: () => void): void => {
        if (!this.pending.delete(entry)) return;
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        cancel.dispose();
        done();
      };
      // Cancelling the token sends `$/cancel_request`.
      const onAbort = (): void => {
        cancel.cancel();
        const error = this.options.abortError?.(method);
        if (error) entry.reject(error);
      };
      this.pending.add(entry);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          cancel.cancel();
          entry.reject(new Error(`${method} got no answer from ${this.label} within ${timeoutMs} ms`));
        }, timeoutMs);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      // Written at once, in call order: a caller may read the id it was given right after.
      this.connection.sendRequest(method, params, cancel.token).then(
        (result) => settle(() => resolve(result)),
        (error: unknown) => entry.reject(error instanceof ResponseError ? (this.options.toRequestError?.(error, method) ?? error) : (error as Error)),
      );
    });
  }

  /** Sends notification M (no answer); nothing is sent once the connection is closed. */
  notify<M extends NotificationsSentBy<R>>(method: M, params: ParamsOf<M>): void {
    this.notifyUnchecked(method, params);
  }

  /** `notify` by any name: see the class comment for who may use it. */
  notifyUnchecked(method: string, params: unknown): void {
    if (!this.closedFlag) void this.connection.sendNotification(method, params).catch(() => undefined);
  }

  /**
   * Answers request M with the handler's result: one handler per method, replacing any
   * earlier one. A throw becomes an error answer (toErrorAnswer). Returns an unregister.
   */
  onRequest<M extends RequestsHandledBy<R>>(method: M, handler: RequestHandler<M>): () => void {
    const stored: AnyRequestHandler = (_method, params, context) => handler(params as ParamsOf<M>, context);
    this.requestHandlers.set(method, stored);
    return () => {
      if (this.requestHandlers.get(method) === stored) this.requestHandlers.delete(method);
    };
  }

  /** Handles notification M; several handlers per method are allowed. Returns an unsubscribe. */
  onNotification<M extends NotificationsHandledBy<R>>(method: M, handler: NotificationHandler<M>): () => void {
    let handlers = this.notificationHandlers.get(method);
    if (handlers === undefined) this.notificationHandlers.set(method, (handlers = new Set()));
    const stored = handler as (params: unknown) => void;
    handlers.add(stored);
    return () => handlers.delete(stored);
  }

  /** Answers every request no `onRequest` handler takes, by name: see the class comment. */
  onAnyRequest(handler: AnyRequestHandler): void {
    this.anyRequestHandler = handler;
  }

  /** Receives every notification after its `onNotification` handlers, by name. */
  onAnyNotification(handler: AnyNotificationHandler): void {
    this.anyNotificationHandler = handler;
  }

  /** Closes the peer: running handlers are aborted, waiting requests reject. The streams stay with the caller. */
  close(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const controller of this.running) controller.abort();
    for (const entry of [...this.pending]) entry.reject(this.closedError(entry.method));
    this.connection.dispose();
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private closedError(method: string): Error {
    return this.options.closedError?.(method) ?? new Error(`${method}: the connection to ${this.label} is closed`);
  }

  /** Runs the handler of one incoming request; its throw becomes the error answer. */
  private async answer(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
    const handler = this.requestHandlers.get(method) ?? this.anyRequestHandler;
    if (handler === undefined) return toResponseError(this.options.noHandler?.(method) ?? { code: ErrorCodes.MethodNotFound, message: `no handler for ${method}` });
    // Cancelled before it ran (the cancel was read with the request): answered as LSP does, not run.
    if (token.isCancellationRequested) {
      return toResponseError(this.options.cancelledBeforeRun?.(method) ?? { code: ErrorCodes.RequestCancelled, message: `${method} cancelled` });
    }
    const controller = new AbortController();
    this.running.add(controller);
    const cancelled = token.onCancellationRequested(() => controller.abort(this.options.abortReason?.(method)));
    try {
      return (await handler(method, params, { signal: controller.signal })) ?? null;
    } catch (error) {
      const answer = this.options.toErrorAnswer?.(method, error, controller.signal.aborted);
      return toResponseError(answer ?? { code: ErrorCodes.InternalError, message: error instanceof Error ? error.message : String(error) });
    } finally {
      cancelled.dispose();
      this.running.delete(controller);
    }
  }

  private deliver(method: string, params: unknown): void {
    // Cancels are the connection's own business (the reader turns ACP's into LSP's, which
    // vscode-jsonrpc consumes); none is a handler's.
    if (method === '$/cancel_request' || method === '$/cancelRequest') return;
    for (const handler of this.notificationHandlers.get(method) ?? []) handler(params);
    this.anyNotificationHandler?.(method, params);
  }
}

function toResponseError({ code, message, data }: ErrorAnswer): ResponseError<unknown> {
  return new ResponseError(code, message, data);
}
