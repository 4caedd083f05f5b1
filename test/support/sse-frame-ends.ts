/** Byte offsets of every SSE frame's end in `body`: a ReplayResponse chunking that sends one frame per write. */
export function sseFrameEnds(body: string): number[] {
  const ends: number[] = [];
  for (let at = body.indexOf('\n\n'); at >= 0; at = body.indexOf('\n\n', at + 2)) ends.push(Buffer.byteLength(body.slice(0, at + 2)));
  return ends;
}
