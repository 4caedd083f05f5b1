import http from 'node:http';
import { listenOnLoopback } from './listen-on-loopback.js';

/** A loopback server answering requests in turn from a list of SSE bodies (cycling), with no delay. */
export async function startScriptedServer(bodies: string[]): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  let next = 0;
  const state = { requests: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = bodies[next++ % bodies.length]!;
      state.requests++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    get requests() {
      return state.requests;
    },
  };
}

/** A chat-completions stream whose only content is one tool call. */
export function toolCallSse(id: string, name: string, args: Record<string, unknown>): string {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench' };
  const frames = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    // Vendors report usage with stream_options.include_usage; the loop's context estimate starts from it.
    { ...base, choices: [], usage: { prompt_tokens: 400, completion_tokens: 20, total_tokens: 420 } },
  ];
  return frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('') + 'data: [DONE]\n\n';
}
