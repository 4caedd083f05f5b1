import { chatFrames } from '../support/sse-server.js';

/** How the loopback vendor hands its body to the socket. */
export type WriteMode = '16k' | 'event' | 'paced';

/** The default modes; `paced` (a millisecond between events: slow) is asked for by name. */
export const WRITE_MODES: readonly WriteMode[] = ['16k', 'event'];

/** The text pieces of an N-chunk answer: equal-sized, so bytes per chunk compare along the stream. */
export function streamPieces(chunks: number): string[] {
  return Array.from({ length: chunks }, (_, i) => `tok${String(i).padStart(6, '0')} `);
}

/**
 * The chat-completions body for N chunks, cut as the vendor writes it: `16k`, 16 KiB
 * slices cut anywhere (inside an event, as a batching proxy or a fast server sends them);
 * `event`, one SSE event per write (as a server streaming token by token does);
 * `paced`, the same with a pause of at least a millisecond after each write, so that every
 * read of the relaying process holds one event (the rate is then the vendor's: compare
 * CPU time per chunk).
 */
export function vendorWrites(chunks: number, mode: WriteMode): string[] {
  const frames = chatFrames(streamPieces(chunks));
  if (mode === 'event' || mode === 'paced') return frames;
  const body = frames.join('');
  const slices: string[] = [];
  for (let at = 0; at < body.length; at += 16_384) slices.push(body.slice(at, at + 16_384));
  return slices;
}
