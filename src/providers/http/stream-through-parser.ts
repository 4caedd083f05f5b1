import type { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import { coalesceDeltas } from './coalesce-deltas.js';
import type { ResponseSizeLimit } from './response-size-limit.js';

/** A protocol's stream parser: text in, unified events out. */
export interface StreamParser {
  push(text: string): StreamEvent[];
  /**
   * Present for a binary protocol (AWS event-stream): the body's bytes go here undecoded,
   * instead of to `push`; the parser bounds its own frames, so the text limit is not applied.
   */
  pushBytes?(chunk: Uint8Array): StreamEvent[];
  /** The body ended: the closing events, or an error for a truncated stream. */
  end(): StreamEvent[];
  /** The request or the body failed: the closing error event. */
  fail(error: ProviderError): StreamEvent[];
  /** True once the vendor's own end marker was seen; the rest of the body is ignored. */
  readonly finished: boolean;
}

/** What bounds one response and how to let go of it early. */
export interface StreamLimits {
  /** Size limits of this response (createResponseSizeLimit). */
  size: ResponseSizeLimit;
  /** Tears the HTTP request down: called when the response is cut off at a limit or ends in an error mid-body. */
  abort(): void;
}

/**
 * The glue every model class shares: send the request, decode the body with a
 * streaming TextDecoder (a UTF-8 sequence cut between two chunks stays whole), feed the
 * parser, and turn any failure into the parser's closing error event. The deltas parsed
 * from one read of the body go on joined (coalesceDeltas), as soon as that read is parsed.
 * A response past its size limits ends with the limit's error after the content within
 * them, and its request is torn down, so an endless stream holds no more memory.
 */
export async function* streamThroughParser(
  send: () => Promise<AsyncIterable<Uint8Array>>,
  parser: StreamParser,
  toError: (error: unknown) => ProviderError,
  limits?: StreamLimits,
): AsyncGenerator<StreamEvent> {
  let body: AsyncIterable<Uint8Array>;
  try {
    body = await send();
  } catch (error) {
    yield* parser.fail(toError(error));
    return;
  }
  const decoder = new TextDecoder();
  let cut = false;
  const pushBytes = parser.pushBytes?.bind(parser);
  try {
    for await (const chunk of body) {
      const text = pushBytes ? '' : decoder.decode(chunk, { stream: true });
      const tooLong = limits?.size.read(text);
      if (tooLong) {
        yield* parser.fail(tooLong);
        cut = true;
        break;
      }
      const parsed = coalesceDeltas(pushBytes ? pushBytes(chunk) : parser.push(text));
      const counted = limits ? limits.size.count(parsed) : { events: parsed };
      yield* counted.events;
      if (counted.error) {
        yield* parser.fail(counted.error);
        cut = true;
        break;
      }
      if (parser.finished) return;
    }
    if (cut) return;
    yield* coalesceDeltas([...(pushBytes ? [] : parser.push(decoder.decode())), ...parser.end()]);
  } catch (error) {
    yield* parser.fail(toError(error));
  } finally {
    if (cut) limits?.abort();
  }
}
