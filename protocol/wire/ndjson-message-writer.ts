import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message } from 'vscode-jsonrpc/node.js';

/** vscode-jsonrpc's MessageWriter for NDJSON: one JSON message per line. */
export class NdjsonMessageWriter extends AbstractMessageWriter {
  /** `awaited`: where the ids of requests written are kept until their answer is read (see NdjsonMessageReader). */
  constructor(
    private readonly output: Writable,
    private readonly awaited?: Set<string | number>,
  ) {
    super();
    output.on('error', (error: Error) => this.fireError(error));
    output.once('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    const request = message as { id?: unknown; method?: unknown };
    if (this.awaited && typeof request.method === 'string' && (typeof request.id === 'string' || typeof request.id === 'number')) this.awaited.add(request.id);
    // A peer that has gone (EPIPE) is an error event of the connection, not a rejection
    // nobody may be waiting for; its close ends the connection.
    return new Promise((resolve) => {
      if (this.output.destroyed || !this.output.writable) {
        this.fireError(new Error('the peer has gone; the message was not sent'), message);
        return resolve();
      }
      this.output.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) this.fireError(error, message);
        resolve();
      });
    });
  }

  end(): void {
    this.output.end();
  }
}
