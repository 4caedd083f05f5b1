/**
 * How a body is cut into writes: in one piece, one byte per write, at given byte
 * offsets, or at pseudo-random offsets from a seed (the same seed always cuts the
 * same way, so a failing split can be replayed).
 */
export type Chunking = 'whole' | 'bytewise' | { splitAt: number[] } | { random: number };

/** Cut `bytes` into consecutive non-empty pieces according to `chunking`. */
export function splitIntoChunks(bytes: Uint8Array, chunking: Chunking): Uint8Array[] {
  if (bytes.length === 0) return [];
  if (chunking === 'whole') return [bytes];
  if (chunking === 'bytewise') return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
  const offsets = 'splitAt' in chunking ? chunking.splitAt : randomOffsets(bytes.length, chunking.random);
  const cuts = [...new Set(offsets.filter((n) => n > 0 && n < bytes.length))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(bytes.subarray(start, cut));
    start = cut;
  }
  return pieces;
}

/** About one cut every 12 bytes on average, at seeded positions. */
function randomOffsets(length: number, seed: number): number[] {
  const next = mulberry32(seed);
  const count = Math.max(1, Math.floor(length / 12));
  return Array.from({ length: count }, () => 1 + Math.floor(next() * (length - 1)));
}

/** mulberry32: a tiny, well-known seeded PRNG; enough to vary split points deterministically. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
