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
    return new Promise((resolve, reject) => {
      this.output.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  end(): void {
    this.output.end();
  }
}
