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
