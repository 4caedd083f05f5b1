import type { EncodedRun } from './encoded-run.js';

/** A request body as the chunks the socket writes, in order. */
export interface EncodedBody {
  chunks: Buffer[];
  /** Their total length in bytes. */
  length: number;
  /** To call once the socket has taken every chunk, or the request is gone; calling again does nothing. */
  release(): void;
}

/** A piece at least this large goes to the socket as it is; smaller ones are copied together. */
const sentWhole = 64 * 1024;

/** Stands for a comma in a body's pieces: one byte, not a buffer of its own to copy. */
const comma = Buffer.from(',');

/**
 * A body gathered piece by piece: large pieces (a session's encoded run, a long member) are
 * written from where they are, without a copy of megabytes into one buffer; runs of small
 * pieces are copied into one chunk each.
 */
export class BodyPieces {
  private readonly list: Buffer[] = [];
  private length = 0;
  private readonly runs = new Set<EncodedRun>();

  /** Whether this body has not used `run` yet (and now has). */
  claim(run: EncodedRun): boolean {
    if (this.runs.has(run)) return false;
    this.runs.add(run);
    return true;
  }

  text(text: string): void {
    if (text !== '') this.bytes(Buffer.from(text));
  }

  bytes(bytes: Buffer): void {
    this.list.push(bytes);
    this.length += bytes.length;
  }

  comma(): void {
    this.bytes(comma);
  }

  /** The body; the runs it used are lent to it until its release. */
  finish(): EncodedBody {
    const chunks: Buffer[] = [];
    let group: Buffer[] = [];
    let groupLength = 0;
    const flush = (): void => {
      if (groupLength === 0) return;
      const merged = Buffer.allocUnsafe(groupLength);
      let at = 0;
      for (const piece of group) {
        if (piece === comma) merged[at++] = 0x2c;
        else {
          merged.set(piece, at);
          at += piece.length;
        }
      }
      chunks.push(merged);
      group = [];
      groupLength = 0;
    };
    for (const piece of this.list) {
      if (piece.length >= sentWhole) {
        flush();
        chunks.push(piece);
      } else {
        group.push(piece);
        groupLength += piece.length;
      }
    }
    flush();
    const returns = [...this.runs].map((run) => run.lend());
    return { chunks, length: this.length, release: () => returns.forEach((giveBack) => giveBack()) };
  }
}
