/** The four wire protocols agentd parses, as named by their folders under src/providers/. */
export const benchProtocols = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'] as const;
export type BenchProtocol = (typeof benchProtocols)[number];

/** One generated response stream, byte-exact in its vendor's wire format. */
export interface BenchTranscript {
  protocol: BenchProtocol;
  /** The response body as the vendor sends it. */
  bytes: Uint8Array;
  /** SSE events on the wire (`[DONE]` and pings included): what events/second counts. */
  wireEvents: number;
  /** All visible text the stream carries, concatenated: every parser must deliver exactly this. */
  text: string;
  /** The one tool call, in the middle of the text. */
  toolCall: { id: string; name: string; arguments: string };
}

/**
 * Token-sized pieces of answer text. Mostly ASCII words as vendors stream them (one
 * token per delta, leading space), with the characters that cost a parser more: JSON
 * escapes (quote, backslash, newline) and multi-byte UTF-8 (2, 3 and 4 bytes).
 */
const vocabulary = [
  ' the', ' stream', ' parser', ' reads', ' every', ' event', ',', ' and', ' then', ' a', ' tool', ' call',
  ' returns', ' bytes', '.', '\n', ' "quoted"', ' path\\to', ' naïve', ' café', ' 東京', ' ✓', ' 🚀', ' x',
  ' function', ' const', ' =', ' await', ' model', ' token', ' delta', ' usage',
];

/** mulberry32, a tiny seeded PRNG: the same seed gives the same transcript on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` text deltas drawn from the vocabulary. */
export function textPieces(count: number, seed: number): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => vocabulary[Math.floor(next() * vocabulary.length)] ?? ' x');
}

/** The tool call every transcript carries, and its arguments cut into `pieces` deltas. */
export function benchToolCall(pieces: number): { name: string; arguments: string; deltas: string[] } {
  const args = JSON.stringify({
    path: 'src/providers/http/post-stream.ts',
    startLine: 1,
    endLine: 168,
    reason: 'read the transport before changing the idle watchdog; check how the body iterator ends',
  });
  const size = Math.ceil(args.length / pieces);
  const deltas = Array.from({ length: pieces }, (_, i) => args.slice(i * size, (i + 1) * size)).filter((d) => d !== '');
  return { name: 'read_file', arguments: args, deltas };
}

/** Splits text pieces into the part before the tool call and the part after it. */
export function aroundTheMiddle<T>(items: T[]): [T[], T[]] {
  const middle = Math.floor(items.length / 2);
  return [items.slice(0, middle), items.slice(middle)];
}

/**
 * Cut a body into the pieces a socket delivers: 1–4 KB each, at seeded offsets that fall
 * anywhere, inside UTF-8 sequences and lines included.
 */
export function splitIntoSocketChunks(bytes: Uint8Array, seed = 7): Uint8Array[] {
  const next = seededRandom(seed);
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; ) {
    const size = 1024 + Math.floor(next() * 3073);
    chunks.push(bytes.subarray(start, Math.min(start + size, bytes.length)));
    start += size;
  }
  return chunks;
}
