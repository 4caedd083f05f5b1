import { FrameTooLargeError } from './frame-too-large-error.js';
import { currentLimit, type FrameDecoder, type FrameLimit } from './frame-decoder.js';

const LF = 0x0a;

/**
 * One JSON message per line, as ACP clients send them. Partial lines are kept as raw
 * bytes (never decoded early) so a UTF-8 sequence split across chunks stays whole.
 * Blank lines and a trailing CR are ignored.
 */
export function createNdjsonDecoder(limit: FrameLimit): FrameDecoder {
  let pending: Buffer[] = [];
  let pendingBytes = 0;

  return {
    push(chunk) {
      const maxFrameBytes = currentLimit(limit);
      const frames: string[] = [];
      let start = 0;
      for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, start)) {
        const piece = chunk.subarray(start, lf);
        const size = pendingBytes + piece.length;
        if (size > maxFrameBytes) throw new FrameTooLargeError(maxFrameBytes, size);
        const line = pendingBytes === 0 ? piece : Buffer.concat([...pending, piece], size);
        pending = [];
        pendingBytes = 0;
        start = lf + 1;
        const text = line.toString('utf8').replace(/\r$/, '');
        if (text.trim() !== '') frames.push(text);
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        pendingBytes += rest.length;
        if (pendingBytes > maxFrameBytes) throw new FrameTooLargeError(maxFrameBytes, pendingBytes);
        pending.push(Buffer.from(rest));
      }
      return frames;
    },
  };
}

export function encodeNdjson(body: string): Buffer {
  return Buffer.from(body + '\n', 'utf8');
}
