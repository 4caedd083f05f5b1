import { request } from 'node:http';
import WebSocket from 'ws';

/** An HTTP answer as the test saw it. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request to the dashboard on 127.0.0.1 with exactly the headers given (`Host` too,
 * which node would otherwise set from the URL), the path sent as written (no normalisation,
 * so traversal spellings reach the server as an attacker would send them).
 */
export function rawGet(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<HttpAnswer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port), path, method, setHost: false, headers: { Host: url.host, ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens a login address; returns the `agentd_session=…` pair to send back as a Cookie. */
export async function logIn(loginUrl: string): Promise<{ cookie: string; answer: HttpAnswer }> {
  const url = new URL(loginUrl);
  const answer = await rawGet(url.origin, url.pathname + url.search);
  const setCookie = [answer.headers['set-cookie'] ?? []].flat()[0] ?? '';
  return { cookie: setCookie.split(';')[0]!, answer };
}

/** A WebSocket to `/rpc`, or the HTTP status and body the upgrade was refused with. */
export type RpcSocket = { kind: 'open'; socket: WebSocket; messages: JsonMessage[]; next(test: (m: JsonMessage) => boolean): Promise<JsonMessage> } | { kind: 'refused'; status: number; body: string };

export type JsonMessage = { jsonrpc?: string; id?: number | string | null; method?: string; params?: any; result?: any; error?: { code: number; message: string } };

export function openRpc(origin: string, headers: Record<string, string>, options: { maxPayload?: number } = {}): Promise<RpcSocket> {
  const url = new URL(origin);
  const { Host, ...rest } = headers;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${url.host}/rpc`, {
      headers: { ...(Host !== undefined ? { Host } : {}), ...rest },
      // The ws client sends an Origin only when told; the tests set it (or leave it out) on purpose.
      ...(options.maxPayload !== undefined ? { maxPayload: options.maxPayload } : {}),
      perMessageDeflate: false,
    });
    const messages: JsonMessage[] = [];
    const waiters: Array<{ test: (m: JsonMessage) => boolean; resolve: (m: JsonMessage) => void }> = [];
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as JsonMessage;
      messages.push(message);
      for (const waiter of [...waiters]) {
        if (waiter.test(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
    socket.once('open', () =>
      resolve({
        kind: 'open',
        socket,
        messages,
        next: (test) =>
          new Promise((found) => {
            const seen = messages.find(test);
            if (seen) return found(seen);
            waiters.push({ test, resolve: found });
          }),
      }),
    );
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ kind: 'refused', status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
    });
    socket.once('error', (error) => reject(error));
  });
}

/** Resolves with the close code and reason once the socket closes. */
export function closedWith(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
}
