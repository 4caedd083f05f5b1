import type { Readable } from 'node:stream';
import { AbstractMessageReader, Disposable, type DataCallback, type Message } from 'vscode-jsonrpc/node.js';
import { toLspCancel } from './cancel-request-strategy.js';
import { createNdjsonDecoder } from './ndjson-decoder.js';

/**
 * vscode-jsonrpc's MessageReader for NDJSON (one JSON message per line, agentd's default
 * framing; vscode-jsonrpc itself reads only `Content-Length` frames). A line that is not a
 * JSON object is reported through `onError` and skipped: the connection stays usable.
 * CRLF line ends are accepted; ACP's `$/cancel_request` is passed on as LSP's `$/cancelRequest`.
 */
export class NdjsonMessageReader extends AbstractMessageReader {
  /** No frame limit here: a size limit is the daemon's concern, and its own framing enforces one. */
  private readonly decoder = createNdjsonDecoder(Number.POSITIVE_INFINITY);

  /** `awaited`: ids of this side's requests still waiting (kept by its writer); an answer to any other id is reported, not passed on. */
  constructor(
    private readonly input: Readable,
    private readonly awaited?: Set<string | number>,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    // A stream someone else set to an encoding (the tests record the same lines) gives strings.
    const onData = (chunk: Buffer | string): void => {
      for (const line of this.decoder.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)) this.deliver(line, callback);
    };
    const onClose = (): void => this.fireClose();
    const onError = (error: Error): void => this.fireError(error);
    this.input.on('data', onData);
    this.input.once('end', onClose);
    this.input.once('close', onClose);
    this.input.on('error', onError);
    return Disposable.create(() => {
      this.input.off('data', onData);
      this.input.off('end', onClose);
      this.input.off('close', onClose);
      this.input.off('error', onError);
    });
  }

  private deliver(line: string, callback: DataCallback): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.fireError(new Error(`received a line that is not JSON: ${line.slice(0, 200)}`));
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.fireError(new Error(`received a JSON value that is not a message object: ${line.slice(0, 200)}`));
      return;
    }
    const fields = message as Record<string, unknown>;
    if (this.awaited && fields.method === undefined && (typeof fields.id === 'string' || typeof fields.id === 'number')) {
      if (!this.awaited.delete(fields.id)) {
        this.fireError(new Error(`received an answer to unknown request id ${JSON.stringify(fields.id)}`));
        return;
      }
    }
    const delivered = toLspCancel(fields);
    if (delivered) callback(delivered as unknown as Message);
  }
}
