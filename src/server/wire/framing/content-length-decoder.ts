import { FrameTooLargeError } from '../../../../protocol/wire/frame-too-large-error.js';
import { currentLimit, type FrameDecoder, type FrameLimit } from '../../../../protocol/wire/frame-decoder.js';

const HEADER_END = Buffer.from('\r\n\r\n');
/** Headers beyond this are not LSP framing at all. */
const MAX_HEADER_BYTES = 8192;

/** Thrown for a header block that is not `Content-Length: N` framing. */
export class FramingError extends Error {}

/**
 * LSP base protocol framing: `Content-Length: N\r\n` (other headers allowed and
 * ignored), a blank line, then N bytes of UTF-8 JSON. The length is checked against
 * the limit before the body is buffered.
 * Spec: https://microsoft.github.io/language-server-protocol/specifications/base/0.9/specification/
 */
export function createContentLengthDecoder(limit: FrameLimit): FrameDecoder {
  // Chunks are only collected until a whole header or body is there, then joined once:
  // joining on every chunk would copy a large body over and over.
  let chunks: Buffer[] = [];
  let pendingBytes = 0;
  let bodyLength = -1;

  const take = (): Buffer => {
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, pendingBytes);
    chunks = [];
    pendingBytes = 0;
    return all;
  };
  const keep = (rest: Buffer): void => {
    if (rest.length === 0) return;
    chunks = [rest];
    pendingBytes = rest.length;
  };

  return {
    push(chunk) {
      chunks.push(chunk);
      pendingBytes += chunk.length;
      const frames: string[] = [];
      for (;;) {
        if (bodyLength < 0) {
          const buffer = take();
          const end = buffer.indexOf(HEADER_END);
          if (end < 0) {
            if (buffer.length > MAX_HEADER_BYTES) throw new FramingError('header block too long');
            keep(buffer);
            break;
          }
          bodyLength = parseContentLength(buffer.subarray(0, end).toString('ascii'));
          const maxFrameBytes = currentLimit(limit);
          if (bodyLength > maxFrameBytes) throw new FrameTooLargeError(maxFrameBytes, bodyLength);
          const rest = buffer.subarray(end + HEADER_END.length);
          keep(rest);
        }
        if (pendingBytes < bodyLength) break;
        const buffer = take();
        frames.push(buffer.subarray(0, bodyLength).toString('utf8'));
        keep(buffer.subarray(bodyLength));
        bodyLength = -1;
      }
      return frames;
    },
  };
}

function parseContentLength(headers: string): number {
  for (const line of headers.split('\r\n')) {
    const match = /^content-length:\s*(\d+)\s*$/i.exec(line);
    if (match) return Number(match[1]);
  }
  throw new FramingError(`missing Content-Length header in ${JSON.stringify(headers.slice(0, 200))}`);
}

export function encodeContentLength(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'ascii'), bytes]);
}
