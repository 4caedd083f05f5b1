import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in received. */
export interface GitHubRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The form fields of a POST (`application/x-www-form-urlencoded`). */
  form: Record<string, string>;
  /** When it arrived (epoch ms), to check polling intervals. */
  at: number;
}

/** An answer: HTTP status (200 when absent), JSON body, extra headers, a delay before answering. */
export interface StandInAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface GitHubStandInOptions {
  /** The answer to `POST /login/device/code`. */
  deviceCode?: StandInAnswer;
  /** Answers to successive `POST /login/oauth/access_token` polls; the last one repeats. */
  polls?: StandInAnswer[];
  /** The answer to the n-th (from 0) `GET /api/v3/copilot_internal/v2/token`. */
  exchange?: (n: number) => StandInAnswer;
}

export interface GitHubStandIn {
  /** `http://127.0.0.1:PORT`: a GitHub Enterprise Server URL, so the REST API is under /api/v3. */
  url: string;
  requests: GitHubRequest[];
  /** The token exchanges received so far. */
  exchanges(): GitHubRequest[];
  close(): Promise<void>;
}

/**
 * A loopback stand-in for GitHub's device flow and Copilot's token exchange, answering like
 * the documented endpoints (https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#device-flow:
 * errors as HTTP 200 with an `error` field) and the token answer the Copilot clients read
 * (src/providers/copilot/copilot-endpoints.ts names them).
 */
export async function startGitHubStandIn(options: GitHubStandInOptions): Promise<GitHubStandIn> {
  const requests: GitHubRequest[] = [];
  let polls = 0;
  let exchanges = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, form: Object.fromEntries(new URLSearchParams(text)), at: Date.now() });
      let answer: StandInAnswer | undefined;
      if (req.method === 'POST' && path === '/login/device/code') answer = options.deviceCode;
      else if (req.method === 'POST' && path === '/login/oauth/access_token') {
        const list = options.polls ?? [];
        answer = list[Math.min(polls++, list.length - 1)];
      } else if (req.method === 'GET' && path === '/api/v3/copilot_internal/v2/token') answer = options.exchange?.(exchanges++);
      answer ??= { status: 404, body: { message: 'Not Found' } };
      const send = (): void => {
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      };
      if (answer.delayMs !== undefined) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    exchanges: () => requests.filter((r) => r.path === '/api/v3/copilot_internal/v2/token'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Copilot token answer: valid for `expiresInS` seconds, chat served at `apiUrl`. */
export function copilotTokenAnswer(apiUrl: string, options: { token?: string; expiresInS?: number; refreshInS?: number } = {}): StandInAnswer {
  const expiresIn = options.expiresInS ?? 1800;
  return {
    body: {
      token: options.token ?? 'tid=copilot-test;exp=1;sku=copilot_for_business_seat:8a2f',
      expires_at: Math.floor(Date.now() / 1000) + expiresIn,
      refresh_in: options.refreshInS ?? expiresIn - 300,
      endpoints: { api: apiUrl },
    },
  };
}
