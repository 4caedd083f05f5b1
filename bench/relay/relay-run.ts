import type { WireTally } from './wire-tally.js';

/** One contender's relay of one streamed answer. */
export interface RelayRun {
  /** From sending the prompt to the answer's end, in milliseconds. */
  ms: number;
  /** From the first content line to the last: the streaming alone, without the request's set-up or the turn's end. */
  streamMs: number;
  /** The chunks that arrived after the first content line (those streamMs covers). */
  streamChunks: number;
  /** CPU time of the relaying process over the answer, in milliseconds. */
  cpuMs: number;
  /** Content-carrying lines (notifications, events) the client read. */
  contentLines: number;
  /** Bytes on the wire per chunk, first and last 100 chunks and over the whole answer. */
  bytesPerChunkFirst100: number;
  bytesPerChunkLast100: number;
  bytesPerChunkAll: number;
  /** The relaying process's peak resident set (VmHWM) after the answer, in MiB. */
  peakRssMiB: number;
}

/** A contender: started once, then asked for an answer per round. */
export interface RelayContender {
  readonly name: string;
  run(): Promise<RelayRun>;
  close(): Promise<void>;
}

/**
 * A relay run's figures from what the client read (`wire`) of an answer of `chunkChars`-long
 * chunks: the same reading for every contender that writes to a pipe.
 */
export function relayRunFrom(
  wire: WireTally,
  answer: { ms: number; finishedAt: number; cpuMs: number; chunkChars: number; peakRssMiB: number },
): RelayRun {
  const chunks = wire.text.length / answer.chunkChars;
  return {
    ms: answer.ms,
    streamMs: (wire.lastContentAt ?? answer.finishedAt) - (wire.firstContentAt ?? answer.finishedAt),
    streamChunks: chunks - wire.firstContentChars / answer.chunkChars,
    cpuMs: answer.cpuMs,
    contentLines: wire.contentLines,
    bytesPerChunkFirst100: wire.bytesPerChunk(0, 100, answer.chunkChars),
    bytesPerChunkLast100: wire.bytesPerChunk(chunks - 100, chunks, answer.chunkChars),
    bytesPerChunkAll: wire.totalBytes / chunks,
    peakRssMiB: answer.peakRssMiB,
  };
}
