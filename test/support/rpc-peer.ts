import type { Readable, Writable } from 'node:stream';

/** A JSON-RPC message as it came off the wire. */
export type WireMessage = {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
};

/**
 * A raw NDJSON JSON-RPC peer for e2e tests: it records every line the daemon wrote
 * (for schema checks), sends requests and waits for answers or notifications.
 */
export class RpcPeer {
  readonly received: WireMessage[] = [];
  readonly rawLines: string[] = [];
  /** Every line this peer wrote, for schema checks of the answers. */
  readonly sentLines: string[] = [];
  private buffer = '';
  private nextId = 1;
  private waiters: Array<{ test: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }> = [];
  private readonly handlers = new Map<string, (params: any) => unknown>();
  readonly closed: Promise<void>;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {
    input.setEncoding('utf8');
    input.on('data', (text: string) => this.onData(text));
    this.closed = new Promise((resolve) => {
      input.once('close', () => resolve());
      input.once('end', () => resolve());
    });
  }

  /** Writes raw text as it is (for malformed-input tests). */
  writeRaw(text: string | Buffer): void {
    this.output.write(text);
  }

  send(message: WireMessage): void {
    const line = JSON.stringify(message);
    this.sentLines.push(line);
    this.output.write(line + '\n');
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Answers every daemon request of this method with the handler's result. */
  onRequest(method: string, handler: (params: any) => unknown): void {
    this.handlers.set(method, handler);
  }

  /** Sends a request and resolves with the whole response message (result or error). */
  request(method: string, params: unknown, timeoutMs = 15_000): Promise<WireMessage> {
    const id = this.nextId++;
    const answer = this.waitFor((m) => m.id === id && m.method === undefined, timeoutMs, `response to ${method}`);
    this.send({ jsonrpc: '2.0', id, method, params });
    return answer;
  }

  /** Sends a request and resolves with its result, rejecting on an error answer. */
  async call(method: string, params: unknown, timeoutMs?: number): Promise<any> {
    const response = await this.request(method, params, timeoutMs);
    if (response.error) throw new Error(`${method} failed: ${response.error.code} ${response.error.message}`);
    return response.result;
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

  private onData(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim() === '') continue;
      this.rawLines.push(line);
      const message = JSON.parse(line) as WireMessage;
      this.received.push(message);
      const handler = message.method && message.id !== undefined ? this.handlers.get(message.method) : undefined;
      if (handler) {
        void Promise.resolve(handler(message.params)).then((result) => this.send({ jsonrpc: '2.0', id: message.id!, result }));
      }
      for (const waiter of [...this.waiters]) {
        if (waiter.test(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    }
  }
}
