import type { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import { coalesceDeltas } from './coalesce-deltas.js';

/** A protocol's stream parser: text in, unified events out. */
export interface StreamParser {
  push(text: string): StreamEvent[];
  /** The body ended: the closing events, or an error for a truncated stream. */
  end(): StreamEvent[];
  /** The request or the body failed: the closing error event. */
  fail(error: ProviderError): StreamEvent[];
  /** True once the vendor's own end marker was seen; the rest of the body is ignored. */
  readonly finished: boolean;
}

/**
 * The glue every model class shares: send the request, decode the body with a
 * streaming TextDecoder (a UTF-8 sequence cut between two chunks stays whole), feed the
 * parser, and turn any failure into the parser's closing error event. The deltas parsed
 * from one read of the body go on joined (coalesceDeltas), as soon as that read is parsed.
 */
export async function* streamThroughParser(
  send: () => Promise<AsyncIterable<Uint8Array>>,
  parser: StreamParser,
  toError: (error: unknown) => ProviderError,
): AsyncGenerator<StreamEvent> {
  let body: AsyncIterable<Uint8Array>;
  try {
    body = await send();
  } catch (error) {
    yield* parser.fail(toError(error));
    return;
  }
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body) {
      yield* coalesceDeltas(parser.push(decoder.decode(chunk, { stream: true })));
      if (parser.finished) return;
    }
    yield* coalesceDeltas([...parser.push(decoder.decode()), ...parser.end()]);
  } catch (error) {
    yield* parser.fail(toError(error));
  }
}
