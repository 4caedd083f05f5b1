/** Byte offsets of every SSE frame's end in `body`: a ReplayResponse chunking that sends one frame per write. */
export function sseFrameEnds(body: string): number[] {
  const ends: number[] = [];
  for (let at = body.indexOf('\n\n'); at >= 0; at = body.indexOf('\n\n', at + 2)) ends.push(Buffer.byteLength(body.slice(0, at + 2)));
  return ends;
}

/** Bytes of `body` up to and including the end of the SSE frame that contains `marker`: where a stalled reply stops. */
export function bytesThrough(body: string, marker: string): number {
  const at = body.indexOf(marker);
  if (at < 0) throw new Error(`bytesThrough: ${JSON.stringify(marker)} is not in the body`);
  return Buffer.byteLength(body.slice(0, body.indexOf('\n\n', at) + 2), 'utf8');
}
