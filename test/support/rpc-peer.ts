import type { Readable, Writable } from 'node:stream';
import { NullLogger, ResponseError, type Message } from 'vscode-jsonrpc/node.js';
import type { ParamsOf, ResultOf } from '../../protocol/index.js';
import { JsonRpcPeer } from '../../protocol/wire/json-rpc-peer.js';
import { NdjsonMessageReader } from '../../protocol/wire/ndjson-message-reader.js';
import { NdjsonMessageWriter } from '../../protocol/wire/ndjson-message-writer.js';
import type { NotificationsSentBy, PeerRole, RequestsHandledBy, RequestsSentBy } from '../../protocol/wire/peer-role.js';

/** A JSON-RPC message as it came off the wire. */
export type WireMessage = {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
};

type Settle = { resolve: (result: unknown) => void; reject: (error: ResponseError<unknown>) => void };

/** A test's answer to a request: usually the result, but a test may answer wrongly on purpose. */
type TestRequestHandler = (params: never) => unknown;

/**
 * The tests' client of the daemon (or, as `RpcPeer<'daemon'>`, a stand-in daemon): the
 * protocol's JsonRpcPeer over NDJSON (the same reader, writer and cancellation as the
 * TypeScript client), typed by the method table for its role, that also records every
 * line each side wrote, as written, for schema checks and for waiting on a message. A
 * daemon request is answered by a handler given to onRequest, or left pending until the
 * test answers it with send({ id, result | error }), which settles it through the
 * connection. The `…Unchecked` members take any method name: only for tests that send
 * what the table does not have on purpose.
 */
export class RpcPeer<R extends PeerRole = 'client'> {
  readonly received: WireMessage[] = [];
  readonly rawLines: string[] = [];
  /** Every line this peer wrote, for schema checks of the answers. */
  readonly sentLines: string[] = [];
  readonly closed: Promise<void>;
  private readonly peer: JsonRpcPeer<R>;
  private readonly handlers = new Map<string, TestRequestHandler>();
  /** Daemon requests waiting for the test's answer, by request id. */
  private readonly unanswered = new Map<string | number, Settle>();
  /** Daemon requests seen on the wire and not yet handed to a handler, to learn a handled request's id. */
  private readonly unclaimed: WireMessage[] = [];
  private lastRequestId: string | number | undefined;
  private waiters: Array<{ test: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }> = [];

  constructor(
    input: Readable,
    private readonly output: Writable,
  ) {
    // Recorded before the connection reads the same data, so that a message is in `received`
    // by the time the connection acts on it.
    recordLines(input, (line) => this.record(line));
    this.closed = new Promise((resolve) => {
      input.once('close', () => resolve());
      input.once('end', () => resolve());
    });
    const writer = new NdjsonMessageWriter(output);
    const write = writer.write.bind(writer);
    writer.write = (message: Message) => {
      this.sentLines.push(JSON.stringify(message));
      const request = message as WireMessage;
      if (request.method !== undefined && request.id !== undefined && request.id !== null) this.lastRequestId = request.id;
      return write(message);
    };
    this.peer = new JsonRpcPeer<R>(new NdjsonMessageReader(input), writer, { logger: NullLogger });
    this.peer.onAnyRequest((method, params) => this.answer(method, params));
  }

  /** Writes raw text as it is (for malformed-input tests). */
  writeRaw(text: string | Buffer): void {
    this.output.write(text);
  }

  /**
   * Sends a message the test spelled out. An answer to a daemon request still waiting goes
   * through the connection; anything else is written as it is.
   */
  send(message: WireMessage): void {
    const waiting = message.method === undefined && message.id != null ? this.unanswered.get(message.id) : undefined;
    if (waiting) {
      this.unanswered.delete(message.id!);
      if (message.error) waiting.reject(new ResponseError(message.error.code, message.error.message, message.error.data));
      else waiting.resolve(message.result);
      return;
    }
    const line = JSON.stringify(message);
    this.sentLines.push(line);
    this.output.write(line + '\n');
  }

  notify<M extends NotificationsSentBy<R>>(method: M, params: ParamsOf<M>): void {
    this.peer.notify(method, params);
  }

  /** `notify` by any name, for a test that sends what the table does not have on purpose. */
  notifyUnchecked(method: string, params: unknown): void {
    this.peer.notifyUnchecked(method, params);
  }

  /**
   * Answers every request of this method with the handler's result (which a test may get
   * wrong on purpose). The params are the method's, or the shape the test declares it relies on.
   */
  onRequest<M extends RequestsHandledBy<R>, P = ParamsOf<M>>(method: M, handler: (params: P) => unknown): void {
    this.handlers.set(method, handler as TestRequestHandler);
  }

  /** `onRequest` by any name, for a stand-in that handles methods by name from the table, as dispatch does. */
  onRequestUnchecked(method: string, handler: (params: unknown) => unknown): void {
    this.handlers.set(method, handler);
  }

  /** Sends request M and resolves with the whole response message (result or error). */
  request<M extends RequestsSentBy<R>>(method: M, params: ParamsOf<M>, timeoutMs?: number): Promise<WireMessage> {
    return this.requestUnchecked(method, params, timeoutMs);
  }

  /** `request` by any name or params, for a test that sends what the table does not have on purpose. */
  requestUnchecked(method: string, params: unknown, timeoutMs = 15_000): Promise<WireMessage> {
    const settled = this.peer.requestUnchecked(method, params).then(
      () => undefined,
      (error: unknown) => {
        if (!(error instanceof ResponseError)) throw error;
      },
    );
    const id = this.lastRequestId!;
    const answer = settled.then(() => this.waitFor((m) => m.id === id && m.method === undefined, timeoutMs, `response to ${method}`));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for the response to ${method}; got ${JSON.stringify(this.received.slice(-5))}`)), timeoutMs);
    });
    const response = Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
    // A request kept in flight on purpose and never awaited must not surface as an unhandled
    // rejection when the daemon goes; whoever awaits it still gets the rejection.
    response.catch(() => undefined);
    return response;
  }

  /** Sends request M and resolves with its result, rejecting on an error answer. */
  async call<M extends RequestsSentBy<R>>(method: M, params: ParamsOf<M>, timeoutMs?: number): Promise<ResultOf<M>> {
    const response = await this.request(method, params, timeoutMs);
    if (response.error) throw new Error(`${method} failed: ${response.error.code} ${response.error.message}`);
    return response.result as ResultOf<M>;
  }

  /** Resolves with the first received message (past or future) matching the test. */
  waitFor(test: (m: WireMessage) => boolean, timeoutMs = 15_000, what = 'message'): Promise<WireMessage> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    const waiting = new Promise<WireMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.received.slice(-5))}`)), timeoutMs);
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
    // A test may leave a request running on purpose (a turn kept in flight) and never await
    // it: its timeout, after the test, must not surface as an unhandled rejection in another
    // file sharing the worker. Whoever awaits it still gets the rejection.
    waiting.catch(() => undefined);
    return waiting;
  }

  /** `session/update` params received for a session, in order. */
  updates(sessionId: string): any[] {
    return this.received.filter((m) => m.method === 'session/update' && m.params?.sessionId === sessionId).map((m) => m.params.update);
  }

  /** Concatenated agent_message_chunk text for a session. */
  agentText(sessionId: string): string {
    return this.updates(sessionId)
      .filter((u) => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => u.content.text)
      .join('');
  }

  close(): void {
    this.output.end();
  }

  /** A daemon request, as the connection hands it over: the test's handler answers, or the test does later. */
  private answer(method: string, params: unknown): unknown {
    // The connection does not say which id it is answering: the request is the first one of
    // this method and these params seen on the wire and not yet handed over.
    const text = JSON.stringify(params);
    const index = this.unclaimed.findIndex((m) => m.method === method && JSON.stringify(m.params) === text);
    const [request] = this.unclaimed.splice(index, 1);
    const handler = this.handlers.get(method);
    if (handler) return handler(params as never);
    return new Promise((resolve, reject) => this.unanswered.set(request!.id!, { resolve, reject }));
  }

  private record(line: string): void {
    this.rawLines.push(line);
    const message = JSON.parse(line) as WireMessage;
    this.received.push(message);
    if (message.method !== undefined && message.id != null) this.unclaimed.push(message);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(message)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  }
}

/** Calls `onLine` with each line of the stream as written (only to record it; the connection parses its own). */
function recordLines(input: Readable, onLine: (line: string) => void): void {
  input.setEncoding('utf8');
  let buffer = '';
  input.on('data', (text: string) => {
    buffer += text;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line.trim() !== '') onLine(line);
    }
  });
}
