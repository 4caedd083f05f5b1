import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, Disposable, type DataCallback, type Message } from 'vscode-jsonrpc/node.js';
import { toLspCancel } from '../../../protocol/wire/cancel-request-strategy.js';
import { FrameTooLargeError } from '../../../protocol/wire/frame-too-large-error.js';
import { JsonRpcPeer, type ErrorAnswer } from '../../../protocol/wire/json-rpc-peer.js';
import type { FrameChannel, OpenFrameChannel } from './framing/frame-channel.js';
import { FramedStream } from './framing/framed-stream.js';
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

const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;

/**
 * One JSON-RPC 2.0 peer over a frame channel (a framed byte stream or a WebSocket), both directions, on the protocol's
 * shared JsonRpcPeer (vscode-jsonrpc underneath): it answers the peer's requests through
 * an InboundHandler and sends the daemon's own requests (permission, tools/call, hooks)
 * and notifications. Before a
 * message reaches vscode-jsonrpc it is framed (NDJSON or Content-Length, detected per
 * connection, the frame limit enforced before buffering) and its envelope is checked: a
 * malformed message gets an error answer here and the connection stays usable; only
 * framing failures close it. ACP's `$/cancel_request` and LSP's `$/cancelRequest` both
 * cancel a running request.
 */
export class JsonRpcConnection {
  private readonly stream: FrameChannel;
  /** Used through its by-name members: this layer carries any method; DaemonPeer and dispatch type and check them. */
  private readonly peer: JsonRpcPeer<'daemon'>;
  private deliver: DataCallback | undefined;
  /** Ids of the peer's requests being handled: a second request with one of them is refused. */
  private readonly inFlight = new Set<RequestId>();
  private handler: InboundHandler | undefined;

  private readonly options: ConnectionOptions;

  /** Over a byte stream pair (framing detected from the first bytes), or over any frame channel. */
  constructor(input: Readable, output: Writable, options: ConnectionOptions);
  constructor(open: OpenFrameChannel, options: ConnectionOptions);
  constructor(...args: [Readable, Writable, ConnectionOptions] | [OpenFrameChannel, ConnectionOptions]) {
    const options = args.length === 3 ? args[2] : args[1];
    const open: OpenFrameChannel = args.length === 3 ? (handlers) => new FramedStream(args[0], args[1], options.maxFrameBytes, handlers) : args[0];
    this.options = { ...options };
    this.stream = open({
      onFrame: (body) => this.onFrame(body),
      onFramingError: (error) => this.onFramingError(error),
      onClose: () => this.peer.close(),
    });
    const connection = this;
    const reader = new (class extends AbstractMessageReader {
      listen(callback: DataCallback): Disposable {
        connection.deliver = callback;
        return Disposable.create(() => (connection.deliver = undefined));
      }
    })();
    const writer = new (class extends AbstractMessageWriter {
      async write(message: Message): Promise<void> {
        connection.send(message);
      }
      end(): void {}
    })();
    this.peer = new JsonRpcPeer<'daemon'>(reader, writer, {
      label: options.label,
      toRequestError: (error) => new RpcError(error.code, error.message, error.data),
      closedError: () => new Error(`connection ${this.label} closed`),
      // The peer is told (`$/cancel_request`) and the caller is answered at once.
      abortError: (method) => RpcError.cancelled(method),
      cancelledBeforeRun: (method) => RpcError.cancelled(method).toJSON(),
      toErrorAnswer: (method, error, aborted) => this.errorAnswer(method, error, aborted),
    });
    this.peer.onAnyRequest((method, params, { signal }) => {
      if (!this.handler) throw RpcError.internal('connection has no handler');
      return this.handler.request(method, params, signal);
    });
    this.peer.onAnyNotification((method, params) => this.onNotification(method, params));
  }

  get label(): string {
    return this.options.label;
  }

  get closed(): boolean {
    return this.peer.closed;
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
    this.peer.onClose(listener);
  }

  notify(method: string, params: unknown): void {
    if (this.closed) return;
    // Written here rather than through vscode-jsonrpc's sendNotification, which writes it the
    // same way (at once, in call order) but with a promise and argument handling per message:
    // a streamed answer sends one per read of the vendor's body.
    this.send({ jsonrpc: '2.0', method, params } as Message);
  }

  /**
   * Writes a notification serialized by the caller: `json` must be what `JSON.stringify`
   * makes of `{ jsonrpc: '2.0', method, params }` (a streamed delta's line is built from a
   * prefix kept per message, see DeltaNotificationJson).
   */
  notifySerialized(json: string): void {
    if (this.closed) return;
    this.write(json);
  }

  /** Sends a request to the peer; rejects on an error answer, timeout, abort or close. */
  request(method: string, params: unknown, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error(`connection ${this.label} is closed`));
    return this.peer.requestUnchecked(method, params, options);
  }

  /** Closes the connection: in-flight handlers are aborted, outbound requests fail. */
  close(): void {
    this.stream.close();
    this.stream.end();
  }

  /** Writes one message. */
  private send(message: Message): void {
    if (this.closed) return;
    const response = message as { id?: RequestId | null; method?: unknown };
    if (response.method === undefined && response.id !== undefined && response.id !== null) this.inFlight.delete(response.id);
    this.write(JSON.stringify(message));
  }

  /** Writes one serialized message; a peer that stops reading is dropped once too much is queued for it. */
  private write(json: string): void {
    const queued = this.stream.queuedBytes;
    if (queued > (this.options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES)) {
      this.options.log?.(`${this.label}: peer is not reading (${queued} bytes queued); closing`);
      this.stream.destroy();
      this.close();
      return;
    }
    this.stream.write(json);
  }

  private onFramingError(error: Error): void {
    const rpc =
      error instanceof FrameTooLargeError
        ? RpcError.frameTooLarge(error.message)
        : RpcError.parseError(`${error.message}; the connection is closed`);
    this.send({ jsonrpc: '2.0', id: null, error: rpc.toJSON() } as Message);
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

  /** Checks the envelope; what passes goes to vscode-jsonrpc. */
  private route(message: Record<string, unknown>): void {
    const id = message.id;
    const validId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
    if (message.jsonrpc !== '2.0') return this.malformed(validId ? (id as RequestId) : null, RpcError.invalidRequest('"jsonrpc" must be "2.0"'));
    if (typeof message.method === 'string') {
      if (id === undefined) {
        const notification = toLspCancel(message);
        // A cancel naming no request cancels nothing; a notification gets no answer either way.
        if (!notification) return this.options.log?.(`${this.label}: ${message.method} without a request id ignored`);
        return this.deliver?.(notification as unknown as Message);
      }
      if (!validId) return this.malformed(null, RpcError.invalidRequest('"id" must be a string or an integer'));
      if (this.inFlight.has(id as RequestId)) {
        return this.malformed(id as RequestId, RpcError.invalidRequest(`request id ${JSON.stringify(id)} is already in use`), false);
      }
      this.inFlight.add(id as RequestId);
      return this.deliver?.(message as unknown as Message);
    }
    if (validId && ('result' in message || 'error' in message)) return this.deliver?.(message as unknown as Message);
    this.malformed(validId ? (id as RequestId) : null, RpcError.invalidRequest('expected a request, a notification or a response'));
  }

  /** Answers a message that is not JSON-RPC; the connection stays usable unless closeOnMalformed. */
  private malformed(id: RequestId | null, error: RpcError, mayClose = true): void {
    if (this.closed) return;
    this.stream.write(JSON.stringify({ jsonrpc: '2.0', id, error: error.toJSON() }));
    if (mayClose && this.options.closeOnMalformed) this.close();
  }

  private onNotification(method: string, params: unknown): void {
    try {
      this.handler?.notification(method, params);
    } catch (error) {
      this.options.log?.(`${this.label}: notification ${method} failed: ${(error as Error).message}`);
    }
  }

  /** An RpcError keeps its code; a cancelled handler's failure is RequestCancelled; anything else is a bug, logged. */
  private errorAnswer(method: string, error: unknown, aborted: boolean): ErrorAnswer {
    if (error instanceof RpcError) return error.toJSON();
    if (aborted) return RpcError.cancelled(method).toJSON();
    this.options.log?.(`${this.label}: ${method} failed: ${(error as Error).stack ?? String(error)}`);
    return RpcError.internal((error as Error).message).toJSON();
  }
}
