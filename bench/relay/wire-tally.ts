import { performance } from 'node:perf_hooks';

/**
 * What a relaying process wrote for one streamed answer: each content line's bytes and
 * the text it carried, so that bytes per vendor chunk can be read for any stretch of the
 * answer even when one line carries several chunks (a line's bytes are spread over the
 * characters it carries). Chunks are the vendor's equal-sized pieces.
 */
export class WireTally {
  text = '';
  /** Every byte the process wrote during the answer, content lines or not. */
  totalBytes = 0;
  contentLines = 0;
  /** performance.now() when the first content line was read. */
  firstContentAt: number | undefined;
  /** performance.now() when the last content line was read. */
  lastContentAt: number | undefined;
  /** Characters of text the first content line carried. */
  firstContentChars = 0;
  private readonly lines: Array<{ end: number; bytes: number; chars: number }> = [];

  /** A line carrying a piece of the answer. */
  content(text: string, bytes: number): void {
    if (this.firstContentAt === undefined) {
      this.firstContentAt = performance.now();
      this.firstContentChars = text.length;
    }
    this.lastContentAt = performance.now();
    this.text += text;
    this.contentLines += 1;
    this.totalBytes += bytes;
    this.lines.push({ end: this.text.length, bytes, chars: text.length });
  }

  /** A line carrying no answer text (events, the response). */
  other(bytes: number): void {
    this.totalBytes += bytes;
  }

  /** Bytes on the wire per chunk over chunks [from, to), each `chunkChars` long. */
  bytesPerChunk(from: number, to: number, chunkChars: number): number {
    const lo = from * chunkChars;
    const hi = to * chunkChars;
    let bytes = 0;
    for (const line of this.lines) {
      const start = line.end - line.chars;
      const overlap = Math.min(hi, line.end) - Math.max(lo, start);
      if (overlap > 0) bytes += (line.bytes * overlap) / line.chars;
    }
    return bytes / (to - from);
  }
}
