import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../../../src/providers/openai-chat/openai-chat-model.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';

const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };
const body =
  ['a', 'b'].map((content) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`).join('') +
  `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

/** How the server ends each answer after `[DONE]`. */
type Ending = 'at once' | 'a little later' | 'never' | 'keeps writing';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function serve(ending: Ending): Promise<{ url: string; connections: () => number; closedAt: () => number[] }> {
  let connections = 0;
  const closedAt: number[] = [];
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (ending === 'at once') res.end(body);
      else if (ending === 'a little later') res.write(body, () => setTimeout(() => res.end(), 20));
      // 'never': the answer is complete but the body stays open (a proxy that never closes it).
      else if (ending === 'never') res.write(body);
      // 'keeps writing': after the end marker, padding goes on and on (16 KiB every 5 ms).
      else {
        res.write(body);
        const pad = setInterval(() => res.write(`: ${'x'.repeat(16_384)}\n\n`), 5);
        res.on('close', () => clearInterval(pad));
      }
    });
  });
  server.on('connection', (socket) => {
    connections += 1;
    socket.on('close', () => closedAt.push(performance.now()));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, connections: () => connections, closedAt: () => closedAt };
}

async function ask(model: OpenAIChatModel): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  const request = { model: '', system: [], messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }], tools: [] };
  for await (const event of model.stream(request, new AbortController().signal)) events.push(event);
  return events;
}

describe('the keep-alive socket after a stream ends at its end marker', () => {
  it.each<Ending>(['at once', 'a little later'])('is reused by the next request when the body ends %s', async (ending) => {
    const { url, connections } = await serve(ending);
    const model = new OpenAIChatModel({ provider: 'p', modelId: 'm', baseUrl: url });
    for (let i = 0; i < 3; i++) {
      expect((await ask(model)).at(-1)).toMatchObject({ type: 'stop' });
      // The rest of the body (the chunked terminator) is read out after the stream's last event.
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect(connections()).toBe(1);
  });

  it('is closed when the body does not end, without holding up the answer', async () => {
    const { url, connections } = await serve('never');
    const model = new OpenAIChatModel({ provider: 'p', modelId: 'm', baseUrl: url });
    // The answer ends at [DONE] although the body never does.
    expect((await ask(model)).at(-1)).toMatchObject({ type: 'stop' });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await ask(model)).at(-1)).toMatchObject({ type: 'stop' });
    expect(connections()).toBe(2);
  });

  it('is closed once the body goes on past 64 KiB after the end marker, before the 1 s wait for it to end', async () => {
    const { url, connections, closedAt } = await serve('keeps writing');
    const model = new OpenAIChatModel({ provider: 'p', modelId: 'm', baseUrl: url });
    expect((await ask(model)).at(-1)).toMatchObject({ type: 'stop' });
    const answered = performance.now();
    while (closedAt().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // The byte limit, not the timer: 64 KiB of padding takes a few writes 5 ms apart.
    expect(closedAt()[0]! - answered).toBeLessThan(900);
    expect((await ask(model)).at(-1)).toMatchObject({ type: 'stop' });
    expect(connections()).toBe(2);
  });
});
