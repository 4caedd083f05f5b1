import http from 'node:http';
import { listenOnLoopback } from './listen-on-loopback.js';

/** A loopback HTTP server that answers every request with the same SSE body, written as given chunks. */
export async function startSseServer(
  chunks: string[],
  /** holdOpen: the stream never ends on its own (the client aborts it); onRequest: called as each request arrives; onAnswer: just before its first byte is written. */
  options: { holdOpen?: boolean; onRequest?: () => void; onAnswer?: () => void } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    options.onRequest?.();
    req.resume();
    req.on('end', () => {
      options.onAnswer?.();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of chunks) res.write(chunk);
      if (!options.holdOpen) res.end();
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
  };
}

/** Chat-completions SSE frames for the given text pieces (OpenAI streaming format). */
export function chatFrames(pieces: string[]): string[] {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench' };
  const frames = pieces.map((content) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`);
  frames.push(
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    // The include_usage chunk vendors send last.
    `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 400, completion_tokens: pieces.length, total_tokens: 400 + pieces.length } })}\n\n`,
    'data: [DONE]\n\n',
  );
  return frames;
}
