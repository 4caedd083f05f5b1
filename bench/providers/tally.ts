import type { BenchTranscript } from './bench-transcript.js';

/**
 * What a contender got out of a stream: the visible text length and the tool calls. Every
 * contender must count exactly what the transcript holds, which proves each one read and
 * decoded the whole stream (and keeps the work from being optimised away).
 */
export interface Tally {
  textChars: number;
  toolCalls: number;
}

export function emptyTally(): Tally {
  return { textChars: 0, toolCalls: 0 };
}

/** Throws when a contender missed text or the tool call: its timing would mean nothing. */
export function checkTally(name: string, transcript: BenchTranscript, tally: Tally): void {
  if (tally.textChars !== transcript.text.length || tally.toolCalls !== 1) {
    throw new Error(
      `${transcript.protocol} / ${name}: read ${tally.textChars} text characters and ${tally.toolCalls} tool calls, ` +
        `expected ${transcript.text.length} and 1; the contender does not parse this transcript correctly`,
    );
  }
}
