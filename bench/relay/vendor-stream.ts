import { chatFrames } from '../support/sse-server.js';

/** How the loopback vendor hands its body to the socket. */
export type WriteMode = '16k' | 'event';

export const WRITE_MODES: readonly WriteMode[] = ['16k', 'event'];

/** The text pieces of an N-chunk answer: equal-sized, so bytes per chunk compare along the stream. */
export function streamPieces(chunks: number): string[] {
  return Array.from({ length: chunks }, (_, i) => `tok${String(i).padStart(6, '0')} `);
}

/**
 * The chat-completions body for N chunks, cut as the vendor writes it: `16k`, 16 KiB
 * slices cut anywhere (inside an event, as a batching proxy or a fast server sends them);
 * `event`, one SSE event per write (as a server streaming token by token does).
 */
export function vendorWrites(chunks: number, mode: WriteMode): string[] {
  const frames = chatFrames(streamPieces(chunks));
  if (mode === 'event') return frames;
  const body = frames.join('');
  const slices: string[] = [];
  for (let at = 0; at < body.length; at += 16_384) slices.push(body.slice(at, at + 16_384));
  return slices;
}
