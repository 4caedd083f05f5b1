import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type {
  ClientNotificationMethod,
  ClientRequestMethod,
  DaemonNotificationMethod,
  DaemonRequestMethod,
  JsonRpcError,
  ParamsOf,
  RequestId,
  ResultOf,
} from '../../../protocol/index.js';
import { ErrorCodes } from '../../../protocol/index.js';
import { AgentdClientError, AgentdConnectionClosedError } from './agentd-client-error.js';
import { installProtocolMethods, type MethodSender, type ProtocolMethods, type RequestOptions } from './protocol-methods.js';

/** What a handler of a daemon → client request gets besides the params. */
export interface IncomingRequestContext {
  /** The request's JSON-RPC id. */
  id: string | number;
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
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

type Message = Record<string, unknown>;

/** Interface half of the class: the derived convenience methods (`newSession`, `prompt`, ...). */
export interface AgentdClient extends ProtocolMethods {}

/**
 * A typed agentd client over any duplex byte stream speaking NDJSON JSON-RPC 2.0 (the
 * daemon's default framing): a child process's stdio, a unix socket, a TCP socket.
 * Incoming messages are not re-validated here: the daemon builds what it sends from the
 * protocol's inferred types (its tests check the wire against the schemas), and a newer
 * daemon's extra fields pass through.
 */
export class AgentdClient {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly incoming = new Map<RequestId, AbortController>();
  private readonly notificationHandlers = new Map<string, Set<(params: never) => void>>();
  private readonly requestHandlers = new Map<string, (params: never, context: IncomingRequestContext) => unknown>();
  private isClosed = false;
  private resolveClosed!: () => void;
  /** Settles when the connection has closed (either side). */
  readonly closed: Promise<void> = new Promise((resolve) => (this.resolveClosed = resolve));

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly options: AgentdClientOptions = {},
  ) {
    const lines = createInterface({ input, crlfDelay: Infinity });
    lines.on('line', (line) => this.onLine(line));
    lines.on('close', () => this.close());
    output.on('error', () => this.close());
  }

  /** Send a request and wait for its result; an error answer rejects with AgentdClientError. */
  request<M extends ClientRequestMethod>(method: M, params: ParamsOf<M>, options: RequestOptions = {}): Promise<ResultOf<M>> {
    const { signal } = options;
    if (this.isClosed) return Promise.reject(new AgentdConnectionClosedError(method));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const onAbort = () => this.notify('$/cancel_request', { requestId: id });
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        method,
        resolve: (result) => {
          settle();
          resolve(result as ResultOf<M>);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Send a notification (no answer). */
  notify<M extends ClientNotificationMethod>(method: M, params: ParamsOf<M>): void {
    if (!this.isClosed) this.send({ jsonrpc: '2.0', method, params });
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
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(new AgentdConnectionClosedError(pending.method));
    }
    for (const controller of this.incoming.values()) controller.abort(new Error('connection closed'));
    this.incoming.clear();
    this.output.end();
    this.resolveClosed();
  }

  private send(message: Message): void {
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  private protocolError(detail: string): void {
    this.options.onProtocolError?.(new Error(`agentd client: ${detail}`));
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.protocolError(`received a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.protocolError(`received a JSON value that is not a message object: ${line.slice(0, 200)}`);
      return;
    }
    const m = message as Message;
    const id = m.id;
    const hasId = typeof id === 'string' || typeof id === 'number';
    if (typeof m.method === 'string') {
      if (hasId) void this.answer(id, m.method, m.params);
      else this.dispatchNotification(m.method, m.params);
    } else if (hasId && ('result' in m || 'error' in m)) {
      this.settle(id, m);
    } else {
      this.protocolError(`received a message that is neither request, notification nor response: ${line.slice(0, 200)}`);
    }
  }

  private settle(id: RequestId, message: Message): void {
    const pending = id === null ? undefined : this.pending.get(id);
    if (pending === undefined) {
      this.protocolError(`received an answer to unknown request id ${JSON.stringify(id)}`);
      return;
    }
    this.pending.delete(id);
    if ('error' in message) {
      const error = (message.error ?? {}) as Partial<JsonRpcError>;
      const code = typeof error.code === 'number' ? error.code : ErrorCodes.InternalError;
      const text = typeof error.message === 'string' ? error.message : `${pending.method} failed`;
      pending.reject(new AgentdClientError(code, text, error.data));
    } else {
      pending.resolve(message.result);
    }
  }

  private dispatchNotification(method: string, params: unknown): void {
    if (method === '$/cancel_request' || method === '$/cancelRequest') this.cancelIncoming(params);
    for (const handler of this.notificationHandlers.get(method) ?? []) handler(params as never);
  }

  private cancelIncoming(params: unknown): void {
    const fields = (params ?? {}) as { requestId?: unknown; id?: unknown };
    const id = fields.requestId ?? fields.id;
    if (typeof id === 'string' || typeof id === 'number') this.incoming.get(id)?.abort(new Error('cancelled by agentd'));
  }

  /** Run the registered handler for a daemon request and send its answer; never rejects. */
  private async answer(id: string | number, method: string, params: unknown): Promise<void> {
    const handler = this.requestHandlers.get(method);
    if (handler === undefined) {
      this.reply(id, {
        error: {
          code: ErrorCodes.MethodNotFound,
          message: `this client has no handler for ${method}; register one with onRequest('${method}', ...)`,
        },
      });
      return;
    }
    const controller = new AbortController();
    this.incoming.set(id, controller);
    try {
      const result = await handler(params as never, { id, signal: controller.signal });
      this.reply(id, { result: result ?? null });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const answer =
        error instanceof AgentdClientError
          ? { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }
          : { code: ErrorCodes.InternalError, message: `client handler for ${method} failed: ${detail}` };
      this.reply(id, { error: answer });
    } finally {
      this.incoming.delete(id);
    }
  }

  private reply(id: string | number, body: { result: unknown } | { error: JsonRpcError }): void {
    if (!this.isClosed) this.send({ jsonrpc: '2.0', id, ...body });
  }
}

// The typed generic signatures are wider at runtime: every method name is a plain string.
installProtocolMethods(AgentdClient.prototype as unknown as MethodSender);
