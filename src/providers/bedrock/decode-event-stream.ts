import { crc32 } from 'node:zlib';

/**
 * One message of the AWS event-stream encoding (`application/vnd.amazon.eventstream`), as
 * the AWS SDKs decode it (smithy-lang/smithy-typescript, packages/eventstream-codec:
 * EventStreamCodec, splitMessage, HeaderMarshaller): a 12-byte prelude (total length,
 * headers length, CRC32 of those 8 bytes), the headers, the payload, and a CRC32 of
 * everything before it.
 */
export interface EventStreamMessage {
  /** Header values by name (`:event-type`, `:message-type`, `:content-type`, `:exception-type`, …). */
  headers: Record<string, EventStreamHeaderValue>;
  payload: Uint8Array;
}

export type EventStreamHeaderValue = boolean | number | bigint | string | Uint8Array | Date;

/** A frame that breaks the encoding; the stream cannot go on after it. */
export class EventStreamFrameError extends Error {
  override readonly name = 'EventStreamFrameError';
}

const PRELUDE_BYTES = 12;
const CHECKSUM_BYTES = 4;
const MIN_MESSAGE_BYTES = PRELUDE_BYTES + CHECKSUM_BYTES;
/** The encoding's bounds: a message of at most 16 MiB, headers of at most 128 KiB (awslabs/aws-c-event-stream, AWS_EVENT_STREAM_MAX_MESSAGE_SIZE and AWS_EVENT_STREAM_MAX_HEADERS_SIZE). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
export const MAX_HEADERS_BYTES = 128 * 1024;

/** Header value types, by their one-byte tag (eventstream-codec HeaderMarshaller). */
const enum HeaderType {
  True = 0,
  False = 1,
  Byte = 2,
  Short = 3,
  Integer = 4,
  Long = 5,
  ByteArray = 6,
  String = 7,
  Timestamp = 8,
  Uuid = 9,
}

/** What one chunk of bytes decoded to: the whole messages in it, then the frame error that stopped it, if any. */
export interface DecodedChunk {
  messages: EventStreamMessage[];
  error?: EventStreamFrameError;
}

/**
 * An incremental decoder: bytes in, whole messages out, however the bytes were cut. A
 * length outside the bounds or a CRC that does not match is an EventStreamFrameError,
 * returned after the good messages before it (they are kept); `pendingBytes` says
 * whether a message was left unfinished when the body ended.
 */
export class EventStreamDecoder {
  private buffer: Uint8Array = new Uint8Array(0);
  private broken: EventStreamFrameError | undefined;

  push(chunk: Uint8Array): DecodedChunk {
    if (this.broken !== undefined) return { messages: [], error: this.broken };
    const messages: EventStreamMessage[] = [];
    try {
      this.decode(chunk, messages);
    } catch (error) {
      if (!(error instanceof EventStreamFrameError)) throw error;
      this.broken = error;
      return { messages, error };
    }
    return { messages };
  }

  private decode(chunk: Uint8Array, messages: EventStreamMessage[]): void {
    this.buffer = this.buffer.length === 0 ? chunk : concat(this.buffer, chunk);
    while (this.buffer.length >= PRELUDE_BYTES) {
      const view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
      const total = view.getUint32(0);
      const headersLength = view.getUint32(4);
      const preludeCrc = view.getUint32(8);
      if (crc32(this.buffer.subarray(0, 8)) !== preludeCrc) throw new EventStreamFrameError('a message prelude whose CRC32 does not match (the stream is corrupt)');
      if (total < MIN_MESSAGE_BYTES || total > MAX_MESSAGE_BYTES) throw new EventStreamFrameError(`a message of ${total} bytes (allowed: ${MIN_MESSAGE_BYTES} to ${MAX_MESSAGE_BYTES})`);
      if (headersLength > MAX_HEADERS_BYTES || headersLength > total - MIN_MESSAGE_BYTES) throw new EventStreamFrameError(`a message with ${headersLength} bytes of headers in ${total} bytes`);
      if (this.buffer.length < total) break;
      const message = this.buffer.subarray(0, total);
      this.buffer = this.buffer.subarray(total);
      const messageCrc = view.getUint32(total - CHECKSUM_BYTES);
      if (crc32(message.subarray(0, total - CHECKSUM_BYTES)) !== messageCrc) throw new EventStreamFrameError('a message whose CRC32 does not match (the stream is corrupt)');
      messages.push({
        headers: decodeHeaders(message.subarray(PRELUDE_BYTES, PRELUDE_BYTES + headersLength)),
        payload: message.subarray(PRELUDE_BYTES + headersLength, total - CHECKSUM_BYTES),
      });
    }
  }

  /** Bytes of an unfinished message: non-zero when the body ended, the stream was cut off. */
  get pendingBytes(): number {
    return this.buffer.length;
  }
}

function decodeHeaders(bytes: Uint8Array): Record<string, EventStreamHeaderValue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headers: Record<string, EventStreamHeaderValue> = {};
  const text = new TextDecoder('utf-8', { fatal: false });
  let at = 0;
  const need = (count: number): void => {
    if (at + count > bytes.length) throw new EventStreamFrameError('a message whose headers run past their declared length');
  };
  while (at < bytes.length) {
    need(1);
    const nameLength = view.getUint8(at);
    at += 1;
    need(nameLength + 1);
    const name = text.decode(bytes.subarray(at, at + nameLength));
    at += nameLength;
    const type = view.getUint8(at);
    at += 1;
    switch (type) {
      case HeaderType.True:
        headers[name] = true;
        break;
      case HeaderType.False:
        headers[name] = false;
        break;
      case HeaderType.Byte:
        need(1);
        headers[name] = view.getInt8(at);
        at += 1;
        break;
      case HeaderType.Short:
        need(2);
        headers[name] = view.getInt16(at);
        at += 2;
        break;
      case HeaderType.Integer:
        need(4);
        headers[name] = view.getInt32(at);
        at += 4;
        break;
      case HeaderType.Long:
        need(8);
        headers[name] = view.getBigInt64(at);
        at += 8;
        break;
      case HeaderType.Timestamp:
        need(8);
        headers[name] = new Date(Number(view.getBigInt64(at)));
        at += 8;
        break;
      case HeaderType.ByteArray:
      case HeaderType.String: {
        need(2);
        const length = view.getUint16(at);
        at += 2;
        need(length);
        const value = bytes.subarray(at, at + length);
        headers[name] = type === HeaderType.String ? text.decode(value) : value;
        at += length;
        break;
      }
      case HeaderType.Uuid:
        need(16);
        headers[name] = bytes.subarray(at, at + 16);
        at += 16;
        break;
      default:
        throw new EventStreamFrameError(`a header "${name}" of unknown type ${type}`);
    }
  }
  return headers;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
