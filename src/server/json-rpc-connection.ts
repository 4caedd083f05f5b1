import type { Readable, Writable } from 'node:stream';
import { FramedStream } from './framing/framed-stream.js';
import { FrameTooLargeError } from './framing/frame-too-large-error.js';
import { RpcError } from './rpc-error.js';

type RequestId = string | number;

/** What the connection hands an inbound request or notification to. */
export interface InboundHandler {
  /** Answers a request; throw RpcError for an error answer. `signal` fires on cancel or close. */
  request(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  notification(method: string, params: unknown): void;
}

export interface ConnectionOptions {
  maxFrameBytes: number;
  /** Label for logs (e.g. `stdio`, `unix#3`). */
  label: string;
  log?: (line: string) => void;
  /** A peer that stops reading is dropped once this much output is queued for it; 64 MiB by default. */
  maxQueuedBytes?: number;
  /** Answer a malformed message, then close (a TCP peer that has not authenticated gets no second try). */
  closeOnMalformed?: boolean;
}

/** The limits that may change while a connection is open (when a TCP client authenticates). */
export type ConnectionLimits = Pick<ConnectionOptions, 'maxFrameBytes' | 'maxQueuedBytes' | 'closeOnMalformed'>;

interface PendingOutbound {
  resolve(value: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;

/**
 * One JSON-RPC 2.0 peer over a framed byte stream, both directions: it answers the
 * peer's requests through an InboundHandler and sends the daemon's own requests
 * (permission, tools/call, hooks) and notifications. A malformed message gets an
 * error answer and the connection stays usable; only framing failures close it.
 */
export class JsonRpcConnection {
  private readonly stream: FramedStream;
  private readonly inbound = new Map<RequestId, AbortController>();
  private readonly outbound = new Map<RequestId, PendingOutbound>();
  private readonly closeListeners: Array<() => void> = [];
  private nextId = 1;
  private closedFlag = false;
  private handler: InboundHandler | undefined;

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly options: ConnectionOptions,
  ) {
    this.options = { ...options };
    this.stream = new FramedStream(input, output, options.maxFrameBytes, {
      onFrame: (body) => this.onFrame(body),
      onFramingError: (error) => this.onFramingError(error),
      onClose: () => this.shutdown(),
    });
  }

  get label(): string {
    return this.options.label;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Changes the limits from now on; the frame limit applies from the next byte read. */
  setLimits(limits: ConnectionLimits): void {
    Object.assign(this.options, limits);
    this.stream.setMaxFrameBytes(limits.maxFrameBytes);
  }

  /** Set before the first bytes arrive (the transport starts reading right away). */
  setHandler(handler: InboundHandler): void {
    this.handler = handler;
  }

  onClose(listener: () => void): void {
    if (this.closedFlag) listener();
    else this.closeListeners.push(listener);
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Sends a request to the peer; rejects on an error answer, timeout, abort or close. */
  request(method: string, params: unknown, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<unknown> {
    if (this.closedFlag) return Promise.reject(new Error(`connection ${this.label} is closed`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        this.notify('$/cancel_request', { requestId: id });
        settle.reject(RpcError.cancelled(method));
      };
      const settle: PendingOutbound = {
        resolve: (value) => {
          settle.cleanup();
          resolve(value);
        },
        reject: (error) => {
          settle.cleanup();
          reject(error);
        },
        cleanup: () => {
          this.outbound.delete(id);
          if (timer) clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
        },
      };
      this.outbound.set(id, settle);
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.notify('$/cancel_request', { requestId: id });
          settle.reject(new Error(`${method} got no answer from ${this.label} within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      }
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Closes the connection: in-flight handlers are aborted, outbound requests fail. */
  close(): void {
    this.stream.close();
    if (!this.output.writableEnded) this.output.end();
  }

  private send(message: object): void {
    if (this.closedFlag) return;
    const queued = this.output.writableLength;
    if (queued > (this.options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES)) {
      this.options.log?.(`${this.label}: peer is not reading (${queued} bytes queued); closing`);
      this.output.destroy();
      this.close();
      return;
    }
    this.stream.write(JSON.stringify(message));
  }

  private onFramingError(error: Error): void {
    const rpc =
      error instanceof FrameTooLargeError
        ? RpcError.frameTooLarge(error.message)
        : RpcError.parseError(`${error.message}; the connection is closed`);
    this.send({ jsonrpc: '2.0', id: null, error: rpc.toJSON() });
    this.close();
  }

  private onFrame(body: string): void {
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch (error) {
      return this.malformed(null, RpcError.parseError((error as Error).message));
    }
    if (Array.isArray(message)) return this.malformed(null, RpcError.invalidRequest('batches are not supported; send one message per frame'));
    if (typeof message !== 'object' || message === null) return this.malformed(null, RpcError.invalidRequest('a message must be a JSON object'));
    this.route(message as Record<string, unknown>);
  }

  private route(message: Record<string, unknown>): void {
    const id = message.id;
    const validId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
    if (message.jsonrpc !== '2.0') return this.malformed(validId ? (id as RequestId) : null, RpcError.invalidRequest('"jsonrpc" must be "2.0"'));
    if (typeof message.method === 'string') {
      if (id === undefined) return this.onNotification(message.method, message.params);
      if (!validId) return this.malformed(null, RpcError.invalidRequest('"id" must be a string or an integer'));
      return void this.onRequest(id as RequestId, message.method, message.params);
    }
    if (validId && ('result' in message || 'error' in message)) return this.onResponse(id as RequestId, message);
    this.malformed(validId ? (id as RequestId) : null, RpcError.invalidRequest('expected a request, a notification or a response'));
  }

  /** Answers a message that is not JSON-RPC; the connection stays usable unless closeOnMalformed. */
  private malformed(id: RequestId | null, error: RpcError): void {
    this.send({ jsonrpc: '2.0', id, error: error.toJSON() });
    if (this.options.closeOnMalformed) this.close();
  }

  private onNotification(method: string, params: unknown): void {
    if (method === '$/cancel_request' || method === '$/cancelRequest') {
      const p = (params ?? {}) as { requestId?: RequestId; id?: RequestId };
      const target = p.requestId ?? p.id;
      if (target !== undefined) this.inbound.get(target)?.abort();
      return;
    }
    try {
      this.handler?.notification(method, params);
    } catch (error) {
      this.options.log?.(`${this.label}: notification ${method} failed: ${(error as Error).message}`);
    }
  }

  private async onRequest(id: RequestId, method: string, params: unknown): Promise<void> {
    if (this.inbound.has(id)) {
      this.send({ jsonrpc: '2.0', id, error: RpcError.invalidRequest(`request id ${JSON.stringify(id)} is already in use`).toJSON() });
      return;
    }
    const controller = new AbortController();
    this.inbound.set(id, controller);
    try {
      if (!this.handler) throw RpcError.internal('connection has no handler');
      const result = await this.handler.request(method, params, controller.signal);
      this.send({ jsonrpc: '2.0', id, result: result ?? null });
    } catch (error) {
      let rpc: RpcError;
      if (error instanceof RpcError) rpc = error;
      else if (controller.signal.aborted) rpc = RpcError.cancelled(method);
      else {
        this.options.log?.(`${this.label}: ${method} failed: ${(error as Error).stack ?? String(error)}`);
        rpc = RpcError.internal((error as Error).message);
      }
      this.send({ jsonrpc: '2.0', id, error: rpc.toJSON() });
    } finally {
      this.inbound.delete(id);
    }
  }

  private onResponse(id: RequestId, message: Record<string, unknown>): void {
    const pending = this.outbound.get(id);
    if (!pending) return;
    const error = message.error as { code?: number; message?: string; data?: unknown } | undefined;
    if (error) pending.reject(new RpcError(error.code ?? -32603, error.message ?? 'error', error.data));
    else pending.resolve(message.result);
  }

  private shutdown(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const controller of this.inbound.values()) controller.abort();
    for (const pending of [...this.outbound.values()]) pending.reject(new Error(`connection ${this.label} closed`));
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
