import { aroundTheMiddle, benchToolCall, textPieces, type BenchTranscript } from './bench-transcript.js';

/**
 * A `streamGenerateContent?alt=sse` stream as generativelanguage.googleapis.com sends it
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent):
 * every event is a whole GenerateContentResponse on one `data:` line, events separated by
 * CRLF CRLF, JSON written with a space after each colon, usageMetadata on every chunk,
 * the function call as one whole part, and `finishReason` on the last chunk.
 */
export function geminiTranscript(events = 5000): BenchTranscript {
  const tool = benchToolCall(1);
  const pieces = textPieces(events - 1, 4);
  const [before, after] = aroundTheMiddle(pieces);
  const frames: string[] = [];
  const prompt = { promptTokenCount: 1250, totalTokenCount: 1250, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 1250 }] };
  const send = (parts: unknown[], last = false): void => {
    const candidate: Record<string, unknown> = { content: { parts, role: 'model' } };
    if (last) candidate['finishReason'] = 'STOP';
    candidate['index'] = 0;
    const usageMetadata = last
      ? { promptTokenCount: 1250, candidatesTokenCount: pieces.length + 1, totalTokenCount: 1251 + pieces.length, promptTokensDetails: prompt.promptTokensDetails }
      : prompt;
    frames.push(`data: ${googleJson({ candidates: [candidate], usageMetadata, modelVersion: 'gemini-2.5-flash', responseId: 'bEnChPaRsEtHrOuGhPuT01' })}\r\n\r\n`);
  };
  for (const text of before) send([{ text }]);
  send([{ functionCall: { name: tool.name, args: JSON.parse(tool.arguments) as unknown } }]);
  after.forEach((text, i) => send([{ text }], i === after.length - 1));
  return {
    protocol: 'gemini',
    bytes: new TextEncoder().encode(frames.join('')),
    wireEvents: frames.length,
    text: pieces.join(''),
    // Gemini sends no call id; parsers make one up.
    toolCall: { id: '', name: tool.name, arguments: tool.arguments },
  };
}

/** JSON as Google's servers print it: `"key": value` pairs joined by bare commas. */
function googleJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(googleJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${googleJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
