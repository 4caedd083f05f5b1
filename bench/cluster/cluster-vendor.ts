import http from 'node:http';
import { listenOnLoopback, type LoopbackServer } from '../support/listen-on-loopback.js';
import { chatFrames } from '../support/sse-server.js';

/** The loopback model of the cluster benchmarks: what it answered, and a way to hold answers open. */
export interface ClusterVendor extends LoopbackServer {
  /** Requests whose answer has started, in arrival order, with when they arrived (performance.now()). */
  readonly requests: Array<{ at: number; text: string }>;
  /** Resolves at the next request's arrival. */
  nextRequest(): Promise<number>;
}

/**
 * A chat-completions server on 127.0.0.1 that "thinks" `thinkMs` before each short answer
 * (a model's time to its answer, during which the daemon only waits). `hold(text)` says
 * which requests are never answered beyond their first chunk: a turn left running, for
 * the failover benchmark.
 */
export async function startClusterVendor(thinkMs: number, hold: (lastUserText: string) => boolean = () => false): Promise<ClusterVendor> {
  const requests: Array<{ at: number; text: string }> = [];
  let waiters: Array<(at: number) => void> = [];
  const answer = chatFrames(['done']);
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (text: string) => (body += text));
    req.on('end', () => {
      const at = performance.now();
      const text = lastUserText(body);
      requests.push({ at, text });
      for (const waiter of waiters.splice(0)) waiter(at);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (hold(text)) res.write(answer[0]!);
        else res.end(answer.join(''));
      }, thinkMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenOnLoopback(server);
  return { ...listening, requests, nextRequest: () => new Promise((resolve) => waiters.push(resolve)) };
}

/** The text of the request's last user message (how a benchmark tells its prompts apart). */
function lastUserText(body: string): string {
  try {
    const messages = (JSON.parse(body) as { messages: Array<{ role: string; content: unknown }> }).messages;
    const last = messages.filter((message) => message.role === 'user').at(-1);
    return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  } catch {
    return '';
  }
}
