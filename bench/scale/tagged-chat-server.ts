import http from 'node:http';
import { chatFrames } from '../support/sse-server.js';
import { listenOnLoopback } from '../support/listen-on-loopback.js';

/** The marker a session's prompt carries; the server reads it from the request body (the prompt text is in the messages). */
export function sessionTag(index: number): string {
  return `scale-session-${String(index).padStart(3, '0')}`;
}

/** The text pieces session `index` is streamed: sequence-numbered, so a lost, doubled or swapped piece shows in the concatenation. */
export function sessionPieces(index: number, chunks: number): string[] {
  return Array.from({ length: chunks }, (_, i) => `s${index}.${i} `);
}

/**
 * A loopback chat-completions server that answers each request with the pieces of the
 * session named in its body (`sessionTag`), each SSE frame written on its own as
 * startSseServer does. A request without a tag is answered 400 and reported.
 */
export async function startTaggedChatServer(chunks: number, onUntagged: () => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (b: Buffer) => body.push(b));
    req.on('end', () => {
      const match = /scale-session-(\d{3})/.exec(Buffer.concat(body).toString('utf8'));
      if (!match) {
        onUntagged();
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'no scale-session tag in the request' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of chatFrames(sessionPieces(Number(match[1]), chunks))) res.write(frame);
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
  };
}
