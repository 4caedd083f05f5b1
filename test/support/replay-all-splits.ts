import type { StreamEvent } from '../../src/providers/stream-event.js';
import { collectEvents } from './collect-events.js';
import type { Fixture } from './load-fixture.js';
import type { ReplayServer } from './replay-server.js';
import type { Chunking } from './split-into-chunks.js';

/** One named way of cutting a transcript. */
export interface LabelledChunking {
  label: string;
  chunking: Chunking;
}

/**
 * The cuts every fixture is replayed with: whole, one byte at a time, seeded random
 * cuts, and one targeted cut set that splits inside every UTF-8 multi-byte sequence
 * and between every CR and LF of the transcript.
 */
export function fixtureChunkings(bytes: Uint8Array, seeds: readonly number[] = [1, 2, 3]): LabelledChunking[] {
  const tricky: number[] = [];
  for (let i = 1; i < bytes.length; i += 1) {
    const byte = bytes[i] ?? 0;
    const previous = bytes[i - 1] ?? 0;
    // A UTF-8 continuation byte (10xxxxxx): cutting before it splits a character.
    if ((byte & 0xc0) === 0x80) tricky.push(i);
    // CR then LF: cutting between them must not produce an extra blank line.
    if (previous === 0x0d && byte === 0x0a) tricky.push(i);
  }
  return [
    { label: 'whole', chunking: 'whole' },
    { label: 'bytewise', chunking: 'bytewise' },
    ...seeds.map((seed) => ({ label: `random seed ${seed}`, chunking: { random: seed } })),
    ...(tricky.length > 0 ? [{ label: 'inside UTF-8 sequences and CRLF', chunking: { splitAt: tricky } }] : []),
  ];
}

/** The events one replay produced. */
export interface ReplayOutcome {
  label: string;
  events: StreamEvent[];
}

/**
 * Replay a fixture once per chunking through `server`, calling `run` to make the
 * request each time (e.g. `() => model.stream(request, signal)`), and return what
 * each replay yielded so the test can compare every one against the expectation.
 */
export async function replayAllSplits(
  server: ReplayServer,
  fixture: Fixture,
  run: () => AsyncIterable<StreamEvent>,
  chunkings: readonly LabelledChunking[] = fixtureChunkings(fixture.bytes),
): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  for (const { label, chunking } of chunkings) {
    server.enqueue({
      status: fixture.expected.status ?? 200,
      headers: fixture.expected.headers ?? { 'content-type': 'text/event-stream' },
      body: fixture.bytes,
      chunking,
    });
    outcomes.push({ label, events: await collectEvents(run()) });
  }
  return outcomes;
}
