import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';

/** Limits for one window of a text file. */
export interface TextWindowLimits {
  /** 1-based first line to show. */
  offset: number;
  /** Most lines to show. */
  maxLines: number;
  /** Most UTF-8 bytes of formatted output. */
  maxBytes: number;
  /** Longer lines are cut with a marker. */
  maxLineChars: number;
}

/** A window of a text file formatted like `cat -n`, plus what the caller needs to continue. */
export interface TextWindow {
  /** `cat -n` style lines: the number right-aligned in 6 columns, a tab, the text. */
  text: string;
  /** Last line shown (offset - 1 when none). */
  lastLine: number;
  /** Lines in the whole file. */
  totalLines: number;
  /** True when the byte cap, not the line cap, ended the window. */
  byteCapped: boolean;
  /** SHA-256 of the whole file, hex (the file is streamed once for both). */
  hash: string;
}

/**
 * Streams a file once (its chunks, from an open regular file: see readChunks): hashes all
 * of it, counts its lines, and keeps only the requested window, so a huge file or a huge
 * single line never sits in memory.
 */
export async function readTextWindow(chunks: AsyncIterable<Buffer>, limits: TextWindowLimits): Promise<TextWindow> {
  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  const out: string[] = [];
  let outBytes = 0;
  let lineNo = 1;
  let current = '';
  let currentLength = 0;
  let collecting = true;
  let byteCapped = false;
  let lastLine = limits.offset - 1;

  const inWindow = (): boolean => collecting && lineNo >= limits.offset && lineNo < limits.offset + limits.maxLines;
  const append = (piece: string): void => {
    if (!inWindow()) return;
    if (current.length <= limits.maxLineChars) current += piece.slice(0, limits.maxLineChars + 1 - current.length);
    currentLength += piece.length;
  };
  const finishLine = (): void => {
    if (inWindow()) {
      let text = current.endsWith('\r') && currentLength === current.length ? current.slice(0, -1) : current;
      if (currentLength > limits.maxLineChars) {
        text = `${text.slice(0, limits.maxLineChars)} … [line cut: ${currentLength - limits.maxLineChars} more characters]`;
      }
      const formatted = `${String(lineNo).padStart(6)}\t${text}`;
      const bytes = Buffer.byteLength(formatted) + 1;
      if (outBytes + bytes > limits.maxBytes && out.length > 0) {
        collecting = false;
        byteCapped = true;
      } else {
        out.push(formatted);
        outBytes += bytes;
        lastLine = lineNo;
      }
    }
    current = '';
    currentLength = 0;
    lineNo += 1;
  };
  const feed = (text: string): void => {
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      append(text.slice(start, nl));
      finishLine();
      start = nl + 1;
    }
    append(text.slice(start));
  };

  let pendingTail = false;
  for await (const buffer of chunks) {
    hash.update(buffer);
    const text = decoder.write(buffer);
    feed(text);
    pendingTail = text.length > 0 ? !text.endsWith('\n') : pendingTail;
  }
  const rest = decoder.end();
  feed(rest);
  if (rest.length > 0) pendingTail = !rest.endsWith('\n');
  if (pendingTail) finishLine();
  return { text: out.join('\n'), lastLine, totalLines: lineNo - 1, byteCapped, hash: hash.digest('hex') };
}
